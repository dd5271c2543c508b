/**
 * `work`, or a rejection with what `late` makes once `ms` have passed: for a step that may hang
 * (a driver's new session, a bench's wait for a marker), so it fails with its name instead.
 */
export function within<T>(work: Promise<T>, ms: number, late: () => unknown): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
