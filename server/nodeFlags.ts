/**
 * Node's own flags for the platform and for every sandbox's runtime (package.json's `start`,
 * `bench` and `runtime` scripts pass the same). One GC thread: by default V8 spreads each
 * collection over four helper threads, and a terminal flood's garbage (every read of the terminal
 * is a buffer) kept them busy on a machine of two cores and a sandbox of one. Per 32 MiB flood,
 * measured per thread from /proc, the runtime used 0.45-0.52 s of CPU with one thread against
 * 0.68-0.91 s with the helpers, the platform 0.19-0.20 s against 0.51-0.54 s, and neither's main
 * thread was busier.
 *
 * No memory reducer: it is for a browser's idle tab. A process that streams a flood spends its
 * time waiting on sockets, looks idle to it, and was made to mark its whole heap again and again:
 * the router ran 6–11 full collections in four 32 MiB floods, 0–3 without it (its CPU per flood
 * 0.08–0.27 s against 0.09–0.19 s). Collections still come when the heap or the buffers grow.
 */
export const nodeFlags = ['--single-threaded-gc', '--no-memory-reducer']
