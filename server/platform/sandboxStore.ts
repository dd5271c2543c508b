import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { SandboxRecord } from './sandboxRecord'

/**
 * Sandbox records on disk, in `<dataDir>/sandboxes.json`, rewritten whole on every change
 * through a temporary file and a rename, so a crash never leaves half a file.
 */
export class SandboxStore {
  private readonly file: string

  constructor(dataDir: string) {
    this.file = join(dataDir, 'sandboxes.json')
    mkdirSync(dirname(this.file), { recursive: true })
  }

  /** Every stored record; none when the file does not exist yet. */
  load(): SandboxRecord[] {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {
      return []
    }
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) throw new Error(`${this.file} does not hold a list of sandboxes`)
    return parsed as SandboxRecord[]
  }

  /** Replaces the stored records. */
  save(records: Iterable<SandboxRecord>): void {
    const temp = `${this.file}.${process.pid}.tmp`
    writeFileSync(temp, `${JSON.stringify([...records], null, 2)}\n`, { mode: 0o600 })
    renameSync(temp, this.file)
  }
}
