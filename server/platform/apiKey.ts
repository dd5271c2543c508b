import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { newSecret } from './ids'

/**
 * The platform API key: the configured one, or the one kept in the data folder, or a new one
 * written there (readable by its owner only). `generated` says whether it is new.
 */
export function platformApiKey(dataDir: string, configured?: string): { key: string; generated: boolean } {
  if (configured) return { key: configured, generated: false }
  const file = join(dataDir, 'api-key')
  try {
    const stored = readFileSync(file, 'utf8').trim()
    if (stored) return { key: stored, generated: false }
  } catch {}
  const key = newSecret('sk_local_')
  writeFileSync(file, `${key}\n`, { mode: 0o600 })
  return { key, generated: true }
}
