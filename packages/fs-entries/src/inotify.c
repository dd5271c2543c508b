// inotify for the sandbox runtime's WatchDir: the kernel's events with their masks, in order.
// Node's fs.watch reads the same inotify events but says only "rename" or "change" for each, so
// a write cannot be told from a chmod, nor a create from a delete; envd maps each inotify event
// to its own EventType, and matching it needs the masks. One instance serves a whole runtime
// (one file descriptor, polled by libuv on the event loop, never keeping the process alive).
#include <node_api.h>
#include <uv.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

// What one delivery gathers at most; the poll fires again for the rest.
#define MAX_DELIVERY (1024 * 1024)

typedef struct {
  napi_env env;
  int fd;
  int closed;
  // Freed once both are true: the poll handle closed, and JavaScript dropped the handle.
  int poll_closed;
  int finalized;
  uv_poll_t poll;
  napi_ref callback;
  napi_async_context context;
} inotify_t;

// Reads everything queued (up to MAX_DELIVERY bytes) into a fresh buffer; *len 0 when none.
// Returns 0, or an errno.
static int read_queued(inotify_t *h, char **out, size_t *len) {
  size_t cap = 0, used = 0;
  char *data = NULL;
  char chunk[65536] __attribute__((aligned(__alignof__(struct inotify_event))));
  *out = NULL;
  *len = 0;
  while (used < MAX_DELIVERY) {
    ssize_t n = read(h->fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      free(data);
      return errno;
    }
    if (n == 0) break;
    if (used + (size_t)n > cap) {
      size_t next = cap ? cap * 2 : sizeof chunk;
      while (next < used + (size_t)n) next *= 2;
      char *grown = realloc(data, next);
      if (!grown) {
        free(data);
        return ENOMEM;
      }
      data = grown;
      cap = next;
    }
    memcpy(data + used, chunk, (size_t)n);
    used += (size_t)n;
  }
  *out = data;
  *len = used;
  return 0;
}

// Hands bytes (or a negative errno) to the JavaScript callback, from libuv's poll.
static void deliver(inotify_t *h, napi_value arg) {
  napi_env env = h->env;
  napi_value callback, global, result;
  if (napi_get_reference_value(env, h->callback, &callback) != napi_ok || !callback) return;
  napi_get_global(env, &global);
  napi_status status = napi_make_callback(env, h->context, global, callback, 1, &arg, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
  }
}

static void on_readable(uv_poll_t *poll, int status, int events) {
  inotify_t *h = poll->data;
  if (h->closed) return;
  napi_handle_scope scope;
  if (napi_open_handle_scope(h->env, &scope) != napi_ok) return;
  napi_value arg;
  if (status < 0) {
    napi_create_int32(h->env, status, &arg);
  } else {
    char *data;
    size_t len;
    int err = read_queued(h, &data, &len);
    if (err) {
      napi_create_int32(h->env, -err, &arg);
    } else if (len == 0) {
      napi_close_handle_scope(h->env, scope);
      return;
    } else {
      void *copied;
      napi_create_buffer_copy(h->env, len, data, &copied, &arg);
      free(data);
    }
  }
  deliver(h, arg);
  napi_close_handle_scope(h->env, scope);
}

static void on_closed(uv_handle_t *handle) {
  inotify_t *h = handle->data;
  close(h->fd);
  h->poll_closed = 1;
  if (h->finalized) free(h);
}

static void shut(inotify_t *h);
static void on_env_cleanup(void *arg);

// JavaScript dropped the handle: stop polling if it was left open, free once closed.
static void on_finalize(napi_env env, void *data, void *hint) {
  inotify_t *h = data;
  h->finalized = 1;
  if (!h->closed) {
    napi_remove_env_cleanup_hook(env, on_env_cleanup, h);
    shut(h);
  } else if (h->poll_closed) {
    free(h);
  }
}

static void shut(inotify_t *h) {
  if (h->closed) return;
  h->closed = 1;
  uv_poll_stop(&h->poll);
  napi_delete_reference(h->env, h->callback);
  napi_async_destroy(h->env, h->context);
  uv_close((uv_handle_t *)&h->poll, on_closed);
}

// The environment (a worker, or the process) is going away: stop polling and free.
static void on_env_cleanup(void *arg) { shut(arg); }

static inotify_t *handle_arg(napi_env env, napi_value value) {
  inotify_t *h = NULL;
  if (napi_get_value_external(env, value, (void **)&h) != napi_ok || !h) {
    napi_throw_type_error(env, NULL, "not an inotify handle");
    return NULL;
  }
  return h;
}

static napi_value int_value(napi_env env, int32_t n) {
  napi_value v;
  napi_create_int32(env, n, &v);
  return v;
}

// inotifyOpen(onEvents) → handle, or a negative errno. onEvents gets a Buffer of raw
// inotify_event records, or a negative errno when reading failed.
static napi_value inotify_open(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_valuetype type = napi_undefined;
  if (argc > 0) napi_typeof(env, argv[0], &type);
  if (type != napi_function) {
    napi_throw_type_error(env, NULL, "inotifyOpen(onEvents) takes a function");
    return NULL;
  }
  struct uv_loop_s *loop;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok) {
    napi_throw_error(env, NULL, "no event loop");
    return NULL;
  }
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return int_value(env, -errno);
  inotify_t *h = calloc(1, sizeof(inotify_t));
  if (!h) {
    close(fd);
    return int_value(env, -ENOMEM);
  }
  h->env = env;
  h->fd = fd;
  int err = uv_poll_init(loop, &h->poll, fd);
  if (err) {
    close(fd);
    free(h);
    return int_value(env, err);
  }
  h->poll.data = h;
  napi_create_reference(env, argv[0], 1, &h->callback);
  napi_value name;
  napi_create_string_utf8(env, "inotify", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, NULL, name, &h->context);
  uv_poll_start(&h->poll, UV_READABLE, on_readable);
  // A watch alone does not keep the process running (as fs.watch with persistent: false).
  uv_unref((uv_handle_t *)&h->poll);
  napi_add_env_cleanup_hook(env, on_env_cleanup, h);
  napi_value external;
  napi_create_external(env, h, on_finalize, NULL, &external);
  return external;
}

// inotifyAddWatch(handle, path, mask) → the watch descriptor, or a negative errno.
static napi_value inotify_add(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 3) {
    napi_throw_type_error(env, NULL, "inotifyAddWatch(handle, path, mask)");
    return NULL;
  }
  inotify_t *h = handle_arg(env, argv[0]);
  if (!h) return NULL;
  if (h->closed) return int_value(env, -EBADF);
  size_t len;
  if (napi_get_value_string_utf8(env, argv[1], NULL, 0, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "the path must be a string");
    return NULL;
  }
  char *path = malloc(len + 1);
  if (!path) return int_value(env, -ENOMEM);
  napi_get_value_string_utf8(env, argv[1], path, len + 1, &len);
  uint32_t mask = 0;
  napi_get_value_uint32(env, argv[2], &mask);
  int wd = inotify_add_watch(h->fd, path, mask);
  int err = errno;
  free(path);
  return int_value(env, wd < 0 ? -err : wd);
}

// inotifyRemoveWatch(handle, wd) → 0, or a negative errno.
static napi_value inotify_remove(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 2) {
    napi_throw_type_error(env, NULL, "inotifyRemoveWatch(handle, wd)");
    return NULL;
  }
  inotify_t *h = handle_arg(env, argv[0]);
  if (!h) return NULL;
  if (h->closed) return int_value(env, -EBADF);
  int32_t wd = -1;
  napi_get_value_int32(env, argv[1], &wd);
  return int_value(env, inotify_rm_watch(h->fd, wd) < 0 ? -errno : 0);
}

// inotifyRead(handle) → a Buffer of what is queued now, undefined when nothing is, or a
// negative errno. Lets a caller take the events of what it just did without waiting for the poll.
static napi_value inotify_read(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1) {
    napi_throw_type_error(env, NULL, "inotifyRead(handle)");
    return NULL;
  }
  inotify_t *h = handle_arg(env, argv[0]);
  if (!h) return NULL;
  napi_value result;
  napi_get_undefined(env, &result);
  if (h->closed) return result;
  char *data;
  size_t len;
  int err = read_queued(h, &data, &len);
  if (err) return int_value(env, -err);
  if (len > 0) {
    void *copied;
    napi_create_buffer_copy(env, len, data, &copied, &result);
  }
  free(data);
  return result;
}

// inotifyClose(handle): stops polling and closes the descriptor (its watches go with it).
static napi_value inotify_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1) {
    napi_throw_type_error(env, NULL, "inotifyClose(handle)");
    return NULL;
  }
  inotify_t *h = handle_arg(env, argv[0]);
  if (!h) return NULL;
  if (!h->closed) {
    napi_remove_env_cleanup_hook(env, on_env_cleanup, h);
    shut(h);
  }
  return NULL;
}

void register_inotify(napi_env env, napi_value exports) {
  static const struct {
    const char *name;
    napi_callback cb;
  } fns[] = {
      {"inotifyOpen", inotify_open},
      {"inotifyAddWatch", inotify_add},
      {"inotifyRemoveWatch", inotify_remove},
      {"inotifyRead", inotify_read},
      {"inotifyClose", inotify_close},
  };
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    napi_value fn;
    napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].cb, NULL, &fn);
    napi_set_named_property(env, exports, fns[i].name, fn);
  }
}
