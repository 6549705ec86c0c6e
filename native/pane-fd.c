/*
 * pane-fd: a Node addon for the server's side of a pane holder (native/pane-holder.c). Node can
 * pass descriptors over a unix socket only between Node processes (child_process IPC), never
 * receive one from a C program's sendmsg, hence:
 *
 *   take(path) -> [socketFd, masterFd, header] | string
 *     connects to the holder's socket (blocking, bounded by TAKE_TIMEOUT_MS), reads its fixed-size
 *     header and the pty master fd attached to it (SCM_RIGHTS). Both fds are close-on-exec; the
 *     caller wraps the socket in a net.Socket and reads the master as node-pty does. A string is
 *     what went wrong.
 *   setSize(fd, cols, rows) -> errno (0 when done)
 *     TIOCSWINSZ on the master: the kernel tells the program (SIGWINCH), as node-pty's resize does.
 *
 * Built by scripts/build-native.js against Node's own headers; without it (or without the holder
 * binary) panes run on in-process node-pty ptys as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#define HEADER_BYTES 512
#define TAKE_TIMEOUT_MS 2000

static napi_value string_value(napi_env env, const char *text) {
  napi_value value;
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &value);
  return value;
}

static napi_value failure(napi_env env, const char *what, int error, int fd) {
  char message[256];
  snprintf(message, sizeof message, "%s: %s", what, error ? strerror(error) : "the holder closed the connection");
  if (fd >= 0) close(fd);
  return string_value(env, message);
}

static napi_value take(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &length) != napi_ok || length == 0 ||
      length >= sizeof path - 1)
    return string_value(env, "take(path): a socket path that fits a unix address is needed");

  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return failure(env, "socket", errno, -1);
  struct timeval timeout = {TAKE_TIMEOUT_MS / 1000, (TAKE_TIMEOUT_MS % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  struct sockaddr_un address = {0};
  address.sun_family = AF_UNIX;
  memcpy(address.sun_path, path, length);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return failure(env, "connect", errno, fd);

  char header[HEADER_BYTES + 1];
  size_t got = 0;
  int master = -1;
  while (got < HEADER_BYTES) {
    struct iovec io = {header + got, HEADER_BYTES - got};
    union {
      struct cmsghdr align;
      char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr message = {0};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    ssize_t n = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    // A signal to the server (a child's SIGCHLD: a holder's starter exits at each pane's start)
    // interrupts the wait; that is no failure of the holder's. Seen at ~2000 panes in B11.
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = n < 0 ? errno : 0;
      if (master >= 0) close(master);
      return failure(env, "reading the holder's header", error, fd);
    }
    for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(&message); cmsg != NULL; cmsg = CMSG_NXTHDR(&message, cmsg)) {
      if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS && master < 0)
        memcpy(&master, CMSG_DATA(cmsg), sizeof(int));
    }
    got += (size_t)n;
  }
  header[HEADER_BYTES] = '\0';
  if (master < 0) return failure(env, "the holder sent no pty", 0, fd);
  // From here Node reads the connection (libuv makes it non-blocking itself).
  struct timeval none = {0, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);

  napi_value result, value;
  napi_create_array_with_length(env, 3, &result);
  napi_create_int32(env, fd, &value);
  napi_set_element(env, result, 0, value);
  napi_create_int32(env, master, &value);
  napi_set_element(env, result, 1, value);
  napi_set_element(env, result, 2, string_value(env, header));
  return result;
}

static napi_value setSize(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t fd = -1, cols = 0, rows = 0;
  napi_value result;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int32(env, argv[1], &cols) != napi_ok ||
      napi_get_value_int32(env, argv[2], &rows) != napi_ok || fd < 0 || cols < 1 || rows < 1 || cols > 65535 ||
      rows > 65535) {
    napi_create_int32(env, EINVAL, &result);
    return result;
  }
  struct winsize size = {(unsigned short)rows, (unsigned short)cols, 0, 0};
  napi_create_int32(env, ioctl(fd, TIOCSWINSZ, &size) == 0 ? 0 : errno, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "take", NAPI_AUTO_LENGTH, take, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "take", fn) != napi_ok) return NULL;
  if (napi_create_function(env, "setSize", NAPI_AUTO_LENGTH, setSize, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "setSize", fn) != napi_ok) return NULL;
  return exports;
}
