/**
 * Node's own flags for the platform and for every sandbox's runtime (package.json's `start`,
 * `bench` and `runtime` scripts pass the same). One GC thread: by default V8 spreads each
 * collection over four helper threads, and a terminal flood's garbage (every read of the terminal
 * is a buffer) kept them busy on a machine of two cores and a sandbox of one. Per 32 MiB flood,
 * measured per thread from /proc, the runtime used 0.45-0.52 s of CPU with one thread against
 * 0.68-0.91 s with the helpers, the platform 0.19-0.20 s against 0.51-0.54 s, and neither's main
 * thread was busier.
 *
 * An old generation that starts at 64 MB: V8 otherwise sets its limit from the live heap (8 MB in
 * a runtime, 17 MB in the platform), and a flood's buffers kept starting incremental marking
 * every few MiB: 7 full collections per 32 MiB flood in a runtime, each marking its whole heap.
 * With 64 MB, none in four floods; the runtime's user CPU per flood fell from 0.32-0.37 s to
 * 0.24-0.27 s and the router's full collections from 6-11 to 0-1 in four floods. It is a limit,
 * not a reservation: an idle runtime's RSS (57 MB) and a flooding one's (113-117 MB) are as before.
 */
export const nodeFlags = ['--single-threaded-gc', '--initial-old-space-size=64']
