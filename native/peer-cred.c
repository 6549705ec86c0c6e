/*
 * peer-cred: a Node addon with one function, `peerUid(fd)`, which returns the uid of the process at
 * the other end of a connected unix socket (-1 when the system cannot tell).
 *
 * Why: a fux client must not talk to a server run by someone else. The socket's directory and the
 * socket file are checked before connecting (src/paths.ts), but only the kernel knows who is
 * listening once the connection is made; tmux asks the same question with getpeereid(3). Node has
 * no binding for it, hence this file. The client refuses a server of another uid, and the server a
 * client of another uid (src/peer-cred.ts).
 *
 * Built by scripts/build-native.js against Node's own headers (N-API, so one build serves every
 * Node version); where it cannot be built, the checks of the directory and the socket file's owner
 * stand alone.
 */
#define _GNU_SOURCE
#include <node_api.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

static int peer_uid(int fd) {
#if defined(SO_PEERCRED)
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
  return (int)cred.uid;
#else
  uid_t uid;
  gid_t gid;
  if (getpeereid(fd, &uid, &gid) != 0) return -1;
  return (int)uid;
#endif
}

static napi_value peerUid(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  napi_value result;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    napi_create_int32(env, -1, &result);
    return result;
  }
  napi_create_int32(env, peer_uid(fd), &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "peerUid", NAPI_AUTO_LENGTH, peerUid, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "peerUid", fn) != napi_ok) return NULL;
  return exports;
}
