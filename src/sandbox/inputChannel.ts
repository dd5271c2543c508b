/** Where a terminal's keystrokes go: in order, never lost, however they travel. */
export interface InputChannel {
  /** Queues input; it goes out in order. */
  push(data: Uint8Array): void
  /** After a failure, or once the process is known, sends what waits. */
  retry(): void
  /** Forgets queued input (the process is gone). */
  clear(): void
  /** Stops sending, forgets what waits, ends any open call. */
  dispose(): void
}
