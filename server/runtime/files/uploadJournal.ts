import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Finishing in-place writes a kill cut short. An upload over an existing file is written in place,
 * as envd writes it (O_TRUNC, the same inode), from a complete temporary copy beside it: a runtime
 * killed between the truncation and the last byte (a power cut, the stack's kill -9) would leave
 * the file cut short. So the write is written down first, in a journal folder of the runtime's
 * own, durably (the temporary file and the entry flushed, then the entry renamed into place and
 * its folder flushed), and struck off once the copy is flushed; the next runtime on the same home
 * finds what is still written down and copies each complete temporary file again, so every file
 * is its old or its new version, never a mix.
 */
export class UploadJournal {
  constructor(readonly dir: string) {}

  /** Writes down that `temp` (complete and flushed) is being copied into `target`; returns how to strike it off. */
  async begin(temp: string, target: string): Promise<() => Promise<void>> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const entry = join(this.dir, `${randomUUID()}.json`)
    const writing = `${entry}.tmp`
    const handle = await open(writing, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600)
    try {
      await handle.writeFile(JSON.stringify({ temp, target }))
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(writing, entry)
    await syncFolder(this.dir)
    return () => unlink(entry).catch(() => {})
  }

  /** Copies again what a killed runtime left half-written; resolves to the files it finished. */
  async recover(): Promise<string[]> {
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch {
      return []
    }
    const finished: string[] = []
    for (const name of names) {
      const path = join(this.dir, name)
      if (!name.endsWith('.json')) {
        // An entry never completed: its copy never began.
        await unlink(path).catch(() => {})
        continue
      }
      try {
        const { temp, target } = JSON.parse(await readFile(path, 'utf8')) as { temp: string; target: string }
        if (typeof temp === 'string' && typeof target === 'string' && (await copyWhole(temp, target))) {
          finished.push(target)
          await unlink(temp).catch(() => {})
        }
      } catch {
        // A damaged entry names nothing safe to copy: left to the file as it is.
      }
      await unlink(path).catch(() => {})
    }
    return finished
  }
}

/** Flushes a folder's entries (a rename into it) to the disk. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Copies `temp` over `target`'s contents in place and flushes it; false when `temp` is gone. */
async function copyWhole(temp: string, target: string): Promise<boolean> {
  let bytes: Buffer
  try {
    bytes = await readFile(temp)
  } catch {
    return false
  }
  const out = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o666)
  try {
    await out.writeFile(bytes)
    await out.sync()
  } finally {
    await out.close()
  }
  return true
}
