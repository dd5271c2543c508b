import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * The stack's records (sandboxes, join links, class checks, remotes, keys) are small files in
 * the data folder, each rewritten whole. This is the one way they are written and read, so a
 * crash or a power cut at any moment leaves each one either old or new, never half of either.
 */

/** A record file that does not hold what it should (edited by hand, or a disk's fault). */
export class DamagedRecordError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${path} is damaged: ${why}`)
    this.name = 'DamagedRecordError'
  }
}

/** Temporary files of a record's writes: this version's `.tmp`, and older versions' `.partial`. */
const temporaryName = (record: string) =>
  new RegExp(`^${record.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.(?:tmp|partial)$`)

/** Flushes a folder's entries (a rename, a removal) to the disk. */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Replaces `path` with `text`: written to a temporary file in the same folder and flushed to
 * the disk, renamed over the record, and the folder flushed too, so that once this returns the
 * new record survives a power cut, and before, the old one does. A failed write (a full disk)
 * leaves the old record and no temporary file.
 */
export function writeRecordFile(path: string, text: string, mode = 0o600): void {
  const temp = `${path}.${process.pid}.tmp`
  // A leftover would keep its own mode: start from none.
  rmSync(temp, { force: true })
  try {
    const fd = openSync(temp, 'wx', mode)
    try {
      writeFileSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (err) {
    rmSync(temp, { force: true })
    throw err
  }
  syncFolder(dirname(path))
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the temporary files that writes of `path` killed before their rename left behind.
 * Another live process's may be a write under way (`npm run ide-link -- --rotate` beside a
 * running stack): those stay. This process's own are leftovers, since it writes synchronously.
 */
function removeLeftovers(path: string): void {
  const pattern = temporaryName(basename(path))
  let entries: string[]
  try {
    entries = readdirSync(dirname(path))
  } catch {
    return
  }
  for (const entry of entries) {
    const pid = Number(pattern.exec(entry)?.[1])
    if (!pid || (pid !== process.pid && isAlive(pid))) continue
    rmSync(join(dirname(path), entry), { force: true })
  }
}

/** A record's text; undefined when there is none yet. Leftovers of killed writes are removed, never read. */
export function readRecordFile(path: string): string | undefined {
  removeLeftovers(path)
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/**
 * A JSON record, checked by `check` (which returns it typed, or undefined when it is not what
 * `what` says); undefined when there is none. Throws DamagedRecordError when it is not valid JSON
 * or not what it should be. The message never quotes the file: records hold keys and tokens.
 */
export function readJsonRecord<T>(
  path: string,
  what: string,
  check: (value: unknown) => T | undefined,
): T | undefined {
  const text = readRecordFile(path)
  if (text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new DamagedRecordError(path, text.trim() === '' ? 'it is empty' : 'it is not valid JSON')
  }
  const checked = check(value)
  if (checked === undefined) throw new DamagedRecordError(path, `it does not hold ${what}`)
  return checked
}

/**
 * Like readJsonRecord, for a record the stack can do without: a damaged one is renamed aside
 * (`<name>.damaged-<time>`, to be looked at or mended), said in one line of `log`, and the stack
 * goes on without it, instead of failing every call that reads it or silently writing over it.
 */
export function readJsonRecordOrSetAside<T>(
  path: string,
  what: string,
  check: (value: unknown) => T | undefined,
  log: (line: string) => void,
): T | undefined {
  try {
    return readJsonRecord(path, what, check)
  } catch (err) {
    if (!(err instanceof DamagedRecordError)) throw err
    const aside = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`
    renameSync(path, aside)
    syncFolder(dirname(path))
    log(`records: ${err.message}; set aside as ${basename(aside)}, going on without it`)
    return undefined
  }
}
