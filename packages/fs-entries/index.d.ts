/** A directory's entries, in the order of their names' bytes (envd's order); arrays indexed alike. */
export interface DirEntries {
  /** Entry names; a name that is not valid UTF-8 is left out (a string cannot name it). */
  names: string[]
  /** The lstat error of each entry (an errno, 0 when it was read): it vanished (ENOENT), or worse. */
  errors: Int32Array
  /** st_mode, with the type bits. */
  modes: Uint32Array
  uids: Uint32Array
  gids: Uint32Array
  sizes: BigInt64Array
  mtimeSeconds: BigInt64Array
  mtimeNanos: Uint32Array
  /**
   * Each entry's extended attributes named `prefix…` (prefix removed) with their raw values, or
   * undefined where it has none; never read for symbolic links (their targets' are the caller's).
   */
  attributes: (Record<string, Uint8Array> | undefined)[]
}

/**
 * Reads `dir` (readdir, then lstat of each entry relative to the directory and one listxattr,
 * following links as getxattr does) on a thread of libuv's pool, so the event loop goes on
 * meanwhile. Rejects with a Node-style error (`code` such as ENOENT or ENOTDIR) when the
 * directory itself cannot be read.
 */
export function readDirEntries(dir: string, attributePrefix: string): Promise<DirEntries>

/**
 * The names of `dir`'s entries, sorted by their bytes, without `.` and `..` and without names that
 * are not valid UTF-8: the first step of a listing read in chunks. Rejects as readDirEntries does.
 */
export function readDirNames(dir: string): Promise<string[]>

/**
 * What readDirEntries reads for each of `names` (entries of `dir`, at most 255 bytes each), in
 * their order, on one thread of libuv's pool: a listing's next chunk, while the caller sends the
 * ones before it. Rejects as readDirEntries does when `dir` itself cannot be opened.
 */
export function statDirEntries(
  dir: string,
  names: readonly string[],
  attributePrefix: string,
): Promise<Omit<DirEntries, 'names'>>

/** An inotify instance (inotify.c): one file descriptor, polled on the event loop. */
export type InotifyHandle = { readonly __inotify: unique symbol }

/**
 * Opens an inotify instance whose events go to `onEvents` as a Buffer of raw `inotify_event`
 * records (whole ones, in the kernel's order), or a negative errno when reading failed. The poll
 * does not keep the process alive. Returns a negative errno when no instance could be made.
 */
export function inotifyOpen(onEvents: (events: Buffer | number) => void): InotifyHandle | number
/** inotify_add_watch(2): the watch descriptor, or a negative errno. */
export function inotifyAddWatch(handle: InotifyHandle, path: string, mask: number): number
/** inotify_rm_watch(2): 0, or a negative errno. */
export function inotifyRemoveWatch(handle: InotifyHandle, wd: number): number
/** What is queued now, without waiting for the poll: raw records, undefined for none, or a negative errno. */
export function inotifyRead(handle: InotifyHandle): Buffer | number | undefined
/** Stops polling and closes the instance, and with it every watch. */
export function inotifyClose(handle: InotifyHandle): void
