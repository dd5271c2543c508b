import type { SandboxSummary } from '../../../src/contract/ideApiTypes'
import type { SandboxRecord } from '../sandboxRecord'

/** One local sandbox as the IDE's sandbox picker shows it (no access token). */
export function sandboxSummary(record: SandboxRecord, defaultId: string | null): SandboxSummary {
  return {
    sandboxId: record.sandboxID,
    templateId: record.templateID,
    state: record.state,
    startedAt: record.startedAt,
    endAt: record.endAt,
    metadata: record.metadata,
    processesLost: record.processesLost ?? false,
    isDefault: record.sandboxID === defaultId,
  }
}
