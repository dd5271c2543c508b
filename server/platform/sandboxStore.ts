import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { readJsonRecord, writeRecordFile } from './recordFile'
import type { SandboxRecord } from './sandboxRecord'

/**
 * Sandbox records on disk, in `<dataDir>/sandboxes.json`, rewritten whole on every change as a
 * record file (see recordFile.ts), so a crash or a power cut never leaves half a file.
 */
export class SandboxStore {
  private readonly file: string

  constructor(dataDir: string) {
    this.file = join(dataDir, 'sandboxes.json')
    mkdirSync(dataDir, { recursive: true })
  }

  /**
   * Every stored record; none when the file does not exist yet. A damaged file throws (a
   * DamagedRecordError): the stack must not start without sandboxes whose files are on disk.
   */
  load(): SandboxRecord[] {
    const records = readJsonRecord(this.file, 'a list of sandboxes', (value) =>
      Array.isArray(value) ? (value as SandboxRecord[]) : undefined,
    )
    return records ?? []
  }

  /** Replaces the stored records. */
  save(records: Iterable<SandboxRecord>): void {
    writeRecordFile(this.file, `${JSON.stringify([...records], null, 2)}\n`)
  }
}
