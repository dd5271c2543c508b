{
  "targets": [
    {
      "target_name": "fs_entries",
      "sources": ["src/fs_entries.c", "src/inotify.c"],
      "cflags": ["-O2", "-pthread", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "ldflags": ["-pthread"],
      "defines": ["NAPI_VERSION=8", "_GNU_SOURCE"]
    }
  ]
}
