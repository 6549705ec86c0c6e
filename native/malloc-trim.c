/*
 * malloc-trim: a Node addon with one function, `trim()`, which asks glibc's allocator to hand its
 * free pages back to the system (malloc_trim(3)) and returns whether any were.
 *
 * Why: a pane's output passes through many short-lived native buffers (pty reads, parser batches,
 * history chunks). Once they are freed glibc keeps the pages for reuse, so a server that flooded
 * 40 panes and closed them stayed at ~200 MiB resident with 15 MiB of live heap (docs/benchmarks.md,
 * B10). glibc gives back only the top of its heap by itself; malloc_trim also releases free pages
 * in the middle. Node has no binding for it, hence this file. The server calls it when it goes
 * quiet after panes closed (src/server/memory/memory-return.ts).
 *
 * Built by scripts/build-native.js against Node's own headers (N-API, so one build serves every
 * Node version); where it cannot be built (no compiler, no glibc) the server runs without it.
 */
#include <malloc.h>
#include <node_api.h>

static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value released;
  napi_get_boolean(env, malloc_trim(0) == 1, &released);
  return released;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "trim", NAPI_AUTO_LENGTH, trim, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "trim", fn) != napi_ok) return NULL;
  return exports;
}
