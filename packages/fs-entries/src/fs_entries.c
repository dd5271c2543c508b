// readDirEntries(dir, prefix): a directory's entries with their lstat and the extended attributes
// named prefix…, read off the main thread in one call (a thread of libuv's pool, helped by a few
// threads of its own for a big folder). The sandbox runtime lists folders of 100,000 entries with
// it: one lstat and one listxattr an entry, with no JavaScript in between, is what `ls -la` costs;
// the same calls made one by one from JavaScript cost three times that.
// readDirNames(dir) and statDirEntries(dir, names, prefix) do the same in steps: the sorted names
// first, then the entries of one chunk of them per call, so a caller can send the first chunks of
// a listing while the pool's threads still read the next ones.
#include <node_api.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

// Linux bounds a listxattr answer and one value at 64 KiB (XATTR_LIST_MAX, XATTR_SIZE_MAX).
#define XATTR_BYTES 65536

typedef struct {
  char *name;
  size_t name_len;
  char *value;
  size_t value_len;
} attr_t;

typedef struct {
  char *name;
  size_t name_len;
  int err;
  uint32_t mode, uid, gid;
  int64_t size, mtime_sec;
  uint32_t mtime_nsec;
  attr_t *attrs;
  size_t attr_count;
} entry_t;

// What one call does: everything at once, the sorted names only, or the entries of given names.
typedef enum { READ_ALL, READ_NAMES, STAT_NAMES } job_kind_t;

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  job_kind_t kind;
  char *dir;
  char *prefix;
  size_t prefix_len;
  entry_t *entries;
  size_t count, capacity;
  int dir_err;
  _Atomic int out_of_memory;  // set by any of the threads describing entries
} job_t;

// A name a JavaScript string can hold and give back: well-formed UTF-8 (no overlongs, no surrogates).
static int valid_utf8(const unsigned char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    unsigned char c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t n;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return 0;
    }
    if (i + n >= len) return 0;
    for (size_t k = 1; k <= n; k++) {
      if ((s[i + k] & 0xc0) != 0x80) return 0;
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
      return 0;
    i += n + 1;
  }
  return 1;
}

static char *copy_bytes(const char *from, size_t len) {
  char *to = malloc(len + 1);
  if (!to) return NULL;
  memcpy(to, from, len);
  to[len] = '\0';
  return to;
}

// The prefix… attributes of `path` (following a link, as getxattr does) onto `e`. A file system
// without them, or an entry gone meanwhile, simply has none.
static void read_attributes(job_t *job, entry_t *e, const char *path, char *list, char *value) {
  ssize_t listed = listxattr(path, list, XATTR_BYTES);
  if (listed <= 0) return;
  for (ssize_t at = 0; at < listed;) {
    const char *attr = list + at;
    size_t attr_len = strnlen(attr, (size_t)(listed - at));
    at += (ssize_t)attr_len + 1;
    if (attr_len <= job->prefix_len || strncmp(attr, job->prefix, job->prefix_len) != 0) continue;
    ssize_t got = getxattr(path, attr, value, XATTR_BYTES);
    if (got < 0) continue;  // removed between list and get
    attr_t *grown = realloc(e->attrs, (e->attr_count + 1) * sizeof(attr_t));
    if (!grown) {
      job->out_of_memory = 1;
      return;
    }
    e->attrs = grown;
    attr_t *a = &e->attrs[e->attr_count];
    a->name_len = attr_len - job->prefix_len;
    a->name = copy_bytes(attr + job->prefix_len, a->name_len);
    a->value_len = (size_t)got;
    a->value = copy_bytes(value, a->value_len);
    if (!a->name || !a->value) {
      free(a->name);
      free(a->value);
      job->out_of_memory = 1;
      return;
    }
    e->attr_count++;
  }
}

// Names in the order of their bytes (Go's sorted directory reads, envd's order).
static int by_name(const void *a, const void *b) {
  return strcmp(((const entry_t *)a)->name, ((const entry_t *)b)->name);
}

// One share of a directory's entries to describe (lstat, then the attributes), on a thread of its own.
typedef struct {
  job_t *job;
  int fd;
  size_t from, to;
} slice_t;

static void *describe_slice(void *arg) {
  slice_t *slice = arg;
  job_t *job = slice->job;
  size_t dir_len = strlen(job->dir);
  char *path = malloc(dir_len + 2 + 256);
  char *list = malloc(XATTR_BYTES);
  char *value = malloc(XATTR_BYTES);
  if (!path || !list || !value) {
    job->out_of_memory = 1;
    goto done;
  }
  memcpy(path, job->dir, dir_len);
  path[dir_len] = '/';
  for (size_t i = slice->from; i < slice->to && !job->out_of_memory; i++) {
    entry_t *e = &job->entries[i];
    struct stat st;
    if (fstatat(slice->fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      e->err = errno;
      continue;
    }
    e->mode = st.st_mode;
    e->uid = st.st_uid;
    e->gid = st.st_gid;
    e->size = st.st_size;
    e->mtime_sec = st.st_mtim.tv_sec;
    e->mtime_nsec = (uint32_t)st.st_mtim.tv_nsec;
    if (S_ISLNK(st.st_mode)) continue;
    memcpy(path + dir_len + 1, e->name, e->name_len + 1);
    read_attributes(job, e, path, list, value);
  }
done:
  free(path);
  free(list);
  free(value);
  return NULL;
}

// Entries below this are described on the pool's thread alone: threads cost more than they save.
#define ENTRIES_PER_THREAD 4096
#define MAX_THREADS 4

// Every name of the open directory `d` but . and .. (and names a string cannot hold) onto the job.
static void read_names(job_t *job, DIR *d) {
  for (;;) {
    errno = 0;
    struct dirent *de = readdir(d);
    if (!de) {
      if (errno) job->dir_err = errno;
      break;
    }
    const char *name = de->d_name;
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
    size_t len = strlen(name);
    if (!valid_utf8((const unsigned char *)name, len)) continue;
    if (job->count == job->capacity) {
      size_t capacity = job->capacity ? job->capacity * 2 : 256;
      entry_t *grown = realloc(job->entries, capacity * sizeof(entry_t));
      if (!grown) {
        job->out_of_memory = 1;
        break;
      }
      job->entries = grown;
      job->capacity = capacity;
    }
    entry_t *e = &job->entries[job->count];
    memset(e, 0, sizeof(*e));
    e->name = copy_bytes(name, len);
    if (!e->name) {
      job->out_of_memory = 1;
      break;
    }
    e->name_len = len;
    job->count++;
  }
}

// The job's entries' lstat and attributes, which are what cost (`ls -la` makes the same calls, one
// after another): shared among a few threads, as the kernel answers them on every core.
static void describe_all(job_t *job, int fd) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t threads = job->count / ENTRIES_PER_THREAD + 1;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  if (cores > 0 && threads > (size_t)cores) threads = (size_t)cores;
  slice_t slices[MAX_THREADS];
  pthread_t ids[MAX_THREADS];
  int started[MAX_THREADS] = {0};
  size_t share = (job->count + threads - 1) / threads;
  for (size_t t = 0; t < threads; t++) {
    slices[t] = (slice_t){job, fd, t * share, (t + 1) * share < job->count ? (t + 1) * share : job->count};
    // The first share on this thread; a thread that cannot start leaves its share to this one.
    if (t > 0) started[t] = pthread_create(&ids[t], NULL, describe_slice, &slices[t]) == 0;
  }
  describe_slice(&slices[0]);
  for (size_t t = 1; t < threads; t++) {
    if (started[t])
      pthread_join(ids[t], NULL);
    else
      describe_slice(&slices[t]);
  }
}

static void execute(napi_env env, void *data) {
  job_t *job = data;
  if (job->kind == STAT_NAMES) {
    // A chunk of a listing: its names came from readDirNames, in their order; this pool thread
    // alone, as the caller keeps a few chunks on the pool at once.
    int fd = open(job->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      job->dir_err = errno;
      return;
    }
    slice_t all = {job, fd, 0, job->count};
    describe_slice(&all);
    close(fd);
    return;
  }
  DIR *d = opendir(job->dir);
  if (!d) {
    job->dir_err = errno;
    return;
  }
  // The names first: readdir is cheap and in one stream.
  read_names(job, d);
  if (job->kind == READ_ALL && !job->out_of_memory && !job->dir_err) describe_all(job, dirfd(d));
  qsort(job->entries, job->count, sizeof(entry_t), by_name);
  closedir(d);
}

static void free_job(job_t *job) {
  for (size_t i = 0; i < job->count; i++) {
    entry_t *e = &job->entries[i];
    for (size_t k = 0; k < e->attr_count; k++) {
      free(e->attrs[k].name);
      free(e->attrs[k].value);
    }
    free(e->attrs);
    free(e->name);
  }
  free(job->entries);
  free(job->dir);
  free(job->prefix);
  free(job);
}

// A Node-style error: code ENOENT, message "ENOENT: no such file or directory, scandir '/x'".
static napi_value dir_error(napi_env env, int err, const char *dir) {
  const char *code = strerrorname_np(err);
  if (!code) code = "EIO";
  char reason[256];
  strncpy(reason, strerror(err), sizeof(reason) - 1);
  reason[sizeof(reason) - 1] = '\0';
  if (reason[0] >= 'A' && reason[0] <= 'Z') reason[0] = (char)(reason[0] - 'A' + 'a');
  size_t size = strlen(code) + strlen(reason) + strlen(dir) + 32;
  char *message = malloc(size);
  napi_value code_value, message_value, error;
  napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value);
  if (message) snprintf(message, size, "%s: %s, scandir '%s'", code, reason, dir);
  napi_create_string_utf8(env, message ? message : code, NAPI_AUTO_LENGTH, &message_value);
  free(message);
  napi_create_error(env, code_value, message_value, &error);
  napi_set_named_property(env, error, "code", code_value);
  napi_value errno_value;
  napi_create_int32(env, -err, &errno_value);
  napi_set_named_property(env, error, "errno", errno_value);
  return error;
}

static napi_value typed_array(napi_env env, napi_typedarray_type type, size_t element, size_t count, void **data) {
  napi_value buffer, array;
  napi_create_arraybuffer(env, element * (count ? count : 1), data, &buffer);
  napi_create_typedarray(env, type, count, buffer, 0, &array);
  return array;
}

static void complete(napi_env env, napi_status status, void *data) {
  job_t *job = data;
  if (status != napi_ok || job->out_of_memory || job->dir_err) {
    napi_value error;
    if (job->dir_err) {
      error = dir_error(env, job->dir_err, job->dir);
    } else {
      napi_value message;
      napi_create_string_utf8(env, "reading the directory ran out of memory", NAPI_AUTO_LENGTH, &message);
      napi_create_error(env, NULL, message, &error);
    }
    napi_reject_deferred(env, job->deferred, error);
  } else if (job->kind == READ_NAMES) {
    napi_value names;
    napi_create_array_with_length(env, job->count, &names);
    for (size_t i = 0; i < job->count; i++) {
      napi_value name;
      napi_create_string_utf8(env, job->entries[i].name, job->entries[i].name_len, &name);
      napi_set_element(env, names, (uint32_t)i, name);
    }
    napi_resolve_deferred(env, job->deferred, names);
  } else {
    // The caller of statDirEntries has the names already.
    int with_names = job->kind == READ_ALL;
    size_t n = job->count;
    napi_value result, names, attributes, undefined;
    napi_create_object(env, &result);
    napi_get_undefined(env, &undefined);
    napi_create_array_with_length(env, with_names ? n : 0, &names);
    napi_create_array_with_length(env, n, &attributes);
    int32_t *errors;
    uint32_t *modes, *uids, *gids, *nanos;
    int64_t *sizes, *seconds;
    napi_value errors_a = typed_array(env, napi_int32_array, 4, n, (void **)&errors);
    napi_value modes_a = typed_array(env, napi_uint32_array, 4, n, (void **)&modes);
    napi_value uids_a = typed_array(env, napi_uint32_array, 4, n, (void **)&uids);
    napi_value gids_a = typed_array(env, napi_uint32_array, 4, n, (void **)&gids);
    napi_value sizes_a = typed_array(env, napi_bigint64_array, 8, n, (void **)&sizes);
    napi_value seconds_a = typed_array(env, napi_bigint64_array, 8, n, (void **)&seconds);
    napi_value nanos_a = typed_array(env, napi_uint32_array, 4, n, (void **)&nanos);
    for (size_t i = 0; i < n; i++) {
      entry_t *e = &job->entries[i];
      if (with_names) {
        napi_value name;
        napi_create_string_utf8(env, e->name, e->name_len, &name);
        napi_set_element(env, names, (uint32_t)i, name);
      }
      errors[i] = e->err;
      modes[i] = e->mode;
      uids[i] = e->uid;
      gids[i] = e->gid;
      sizes[i] = e->size;
      seconds[i] = e->mtime_sec;
      nanos[i] = e->mtime_nsec;
      napi_value attrs = undefined;
      if (e->attr_count) {
        napi_create_object(env, &attrs);
        for (size_t k = 0; k < e->attr_count; k++) {
          napi_value key, bytes;
          void *copied;
          napi_create_string_utf8(env, e->attrs[k].name, e->attrs[k].name_len, &key);
          napi_create_buffer_copy(env, e->attrs[k].value_len, e->attrs[k].value, &copied, &bytes);
          napi_set_property(env, attrs, key, bytes);
        }
      }
      napi_set_element(env, attributes, (uint32_t)i, attrs);
    }
    if (with_names) napi_set_named_property(env, result, "names", names);
    napi_set_named_property(env, result, "errors", errors_a);
    napi_set_named_property(env, result, "modes", modes_a);
    napi_set_named_property(env, result, "uids", uids_a);
    napi_set_named_property(env, result, "gids", gids_a);
    napi_set_named_property(env, result, "sizes", sizes_a);
    napi_set_named_property(env, result, "mtimeSeconds", seconds_a);
    napi_set_named_property(env, result, "mtimeNanos", nanos_a);
    napi_set_named_property(env, result, "attributes", attributes);
    napi_resolve_deferred(env, job->deferred, result);
  }
  napi_delete_async_work(env, job->work);
  free_job(job);
}

static char *string_arg(napi_env env, napi_value value, size_t *length) {
  size_t len;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (!s) return NULL;
  napi_get_value_string_utf8(env, value, s, len + 1, &len);
  if (length) *length = len;
  return s;
}

// Queues `job` on libuv's pool under `name`; its promise.
static napi_value queue_job(napi_env env, job_t *job, const char *name) {
  napi_value promise, resource_name;
  napi_create_promise(env, &job->deferred, &promise);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource_name);
  napi_create_async_work(env, NULL, resource_name, execute, complete, job, &job->work);
  napi_queue_async_work(env, job->work);
  return promise;
}

/** A job of `kind`, zeroed; NULL with a JavaScript error thrown when there is no memory for it. */
static job_t *new_job(napi_env env, job_kind_t kind) {
  job_t *job = calloc(1, sizeof(job_t));
  if (!job) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  job->kind = kind;
  return job;
}

static napi_value read_dir_entries(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  job_t *job = new_job(env, READ_ALL);
  if (!job) return NULL;
  job->dir = argc > 0 ? string_arg(env, argv[0], NULL) : NULL;
  job->prefix = argc > 1 ? string_arg(env, argv[1], &job->prefix_len) : NULL;
  if (!job->dir || !job->prefix) {
    free_job(job);
    napi_throw_type_error(env, NULL, "readDirEntries(dir, prefix) takes two strings");
    return NULL;
  }
  return queue_job(env, job, "readDirEntries");
}

static napi_value read_dir_names(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  job_t *job = new_job(env, READ_NAMES);
  if (!job) return NULL;
  job->dir = argc > 0 ? string_arg(env, argv[0], NULL) : NULL;
  job->prefix = copy_bytes("", 0);
  if (!job->dir || !job->prefix) {
    free_job(job);
    napi_throw_type_error(env, NULL, "readDirNames(dir) takes a string");
    return NULL;
  }
  return queue_job(env, job, "readDirNames");
}

static napi_value stat_dir_entries(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  job_t *job = new_job(env, STAT_NAMES);
  if (!job) return NULL;
  job->dir = argc > 0 ? string_arg(env, argv[0], NULL) : NULL;
  job->prefix = argc > 2 ? string_arg(env, argv[2], &job->prefix_len) : NULL;
  bool is_array = false;
  uint32_t count = 0;
  if (argc > 1) napi_is_array(env, argv[1], &is_array);
  if (is_array) napi_get_array_length(env, argv[1], &count);
  int ok = job->dir && job->prefix && is_array;
  if (ok && count > 0) {
    job->entries = calloc(count, sizeof(entry_t));
    ok = job->entries != NULL;
  }
  // The names are copied here, on the main thread: the pool's thread reads no JavaScript value.
  for (uint32_t i = 0; ok && i < count; i++) {
    napi_value name;
    napi_get_element(env, argv[1], i, &name);
    entry_t *e = &job->entries[i];
    e->name = string_arg(env, name, &e->name_len);
    // A name longer than a directory entry's cannot be one (and would not fit describe_slice's path).
    ok = e->name != NULL && e->name_len <= 255;
    job->count = i + 1;
  }
  if (!ok) {
    free_job(job);
    napi_throw_type_error(env, NULL, "statDirEntries(dir, names, prefix) takes a string, an array of entry names and a string");
    return NULL;
  }
  return queue_job(env, job, "statDirEntries");
}

// inotify.c: the runtime's watches, in the same addon so the sandbox binds one package.
void register_inotify(napi_env env, napi_value exports);

NAPI_MODULE_INIT() {
  register_inotify(env, exports);
  napi_value fn;
  napi_create_function(env, "readDirEntries", NAPI_AUTO_LENGTH, read_dir_entries, NULL, &fn);
  napi_set_named_property(env, exports, "readDirEntries", fn);
  napi_create_function(env, "readDirNames", NAPI_AUTO_LENGTH, read_dir_names, NULL, &fn);
  napi_set_named_property(env, exports, "readDirNames", fn);
  napi_create_function(env, "statDirEntries", NAPI_AUTO_LENGTH, stat_dir_entries, NULL, &fn);
  napi_set_named_property(env, exports, "statDirEntries", fn);
  return exports;
}
