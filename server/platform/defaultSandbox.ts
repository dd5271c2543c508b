import { join } from 'node:path'
import { readRecordFile, writeRecordFile } from './recordFile'
import type { SandboxManager } from './sandboxManager'

/** Where the IDE's default sandbox id is kept, so every start opens the same sandbox. */
function defaultSandboxFile(dataDir: string): string {
  return join(dataDir, 'default-sandbox')
}

function storedId(dataDir: string): string | undefined {
  return readRecordFile(defaultSandboxFile(dataDir))?.trim() || undefined
}

/** The default sandbox's id while the platform still has that sandbox; null otherwise. */
export function defaultSandboxId(dataDir: string, manager: SandboxManager): string | null {
  const id = storedId(dataDir)
  return id && manager.list().some((r) => r.sandboxID === id) ? id : null
}

/**
 * Resumes the IDE's default sandbox, or creates it when there is none yet (first start, or it
 * was killed). It pauses rather than dies when its timeout runs out. Returns its id.
 */
export async function ensureDefaultSandbox(
  manager: SandboxManager,
  { dataDir, timeoutSeconds }: { dataDir: string; timeoutSeconds: number },
): Promise<string> {
  const existing = defaultSandboxId(dataDir, manager)
  if (existing) {
    await manager.connect(existing, timeoutSeconds)
    return existing
  }
  const record = await manager.create({
    timeout: timeoutSeconds,
    autoPause: true,
    metadata: { purpose: 'ide-default' },
  })
  writeRecordFile(defaultSandboxFile(dataDir), `${record.sandboxID}\n`, 0o644)
  return record.sandboxID
}
