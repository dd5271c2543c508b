import { join } from 'node:path'
import { newSecret } from './ids'
import { readRecordFile, writeRecordFile } from './recordFile'

/**
 * The platform API key: the configured one, or the one kept in the data folder, or a new one
 * written there (readable by its owner only). `generated` says whether it is new.
 */
export function platformApiKey(dataDir: string, configured?: string): { key: string; generated: boolean } {
  if (configured) return { key: configured, generated: false }
  const file = join(dataDir, 'api-key')
  const stored = readRecordFile(file)?.trim()
  if (stored) return { key: stored, generated: false }
  const key = newSecret('sk_local_')
  writeRecordFile(file, `${key}\n`)
  return { key, generated: true }
}
