/**
 * Node's flags for the platform and every sandbox's runtime (package.json's `start`, `bench` and
 * `runtime` scripts pass the same): one GC thread and an old generation that starts at 64 MB, as a
 * terminal flood's garbage otherwise costs them far more CPU in collections. See docs/performance.md.
 */
export const nodeFlags = ['--single-threaded-gc', '--initial-old-space-size=64']
/**
 * A sandbox's runtime's: the same, and `gc()`, for the full collections it makes when quiet, as
 * V8 makes none below that 64 MB (server/runtime/idleCollector.ts).
 */
export const runtimeNodeFlags = [...nodeFlags, '--expose-gc']
