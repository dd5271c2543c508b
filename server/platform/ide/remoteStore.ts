import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { z } from 'zod'
import { PlatformError } from '../platformError'
import { readJsonRecordOrSetAside, writeRecordFile } from '../recordFile'
import type { RemoteEndpoint } from './remoteEndpoint'

/** An E2B-compatible API the IDE may reach through the platform, with the key it uses there. */
export interface StoredRemote extends RemoteEndpoint {
  remoteId: string
  apiKey: string
}

const storedRemotes = z.array(
  z.strictObject({ remoteId: z.string(), apiUrl: z.string(), domain: z.string(), apiKey: z.string() }),
)

/** True for something that can be a remote id (12 lowercase hex digits). */
export function isRemoteId(value: string): boolean {
  return /^[0-9a-f]{12}$/.test(value)
}

/** A remote as the browser may see it: never its key. */
export function publicRemote({ remoteId, apiUrl, domain }: StoredRemote) {
  return { remoteId, apiUrl, domain }
}

/**
 * E2B remotes in `<dataDir>/remotes.json`: readable by the platform's user only, rewritten whole
 * as a record file (see recordFile.ts), so a crash never leaves half a file (or half a key). A
 * damaged file is set aside and reported on `log`: the remotes are added again.
 */
export class RemoteStore {
  private readonly file: string
  private readonly remotes = new Map<string, StoredRemote>()

  constructor(dataDir: string, log: (line: string) => void) {
    this.file = join(dataDir, 'remotes.json')
    const stored = readJsonRecordOrSetAside(
      this.file,
      'a list of remotes',
      (value) => storedRemotes.safeParse(value).data,
      log,
    )
    for (const remote of stored ?? []) this.remotes.set(remote.remoteId, remote)
  }

  /** Every remote, in the order they were added. */
  list(): StoredRemote[] {
    return [...this.remotes.values()]
  }

  /** One remote; 404 when unknown. */
  get(remoteId: string): StoredRemote {
    const remote = this.remotes.get(remoteId)
    if (!remote) throw new PlatformError(404, `no E2B remote '${remoteId}': add it again`)
    return remote
  }

  /** Stores a remote; the same API, domain and key again gives back the remote already stored. */
  add(endpoint: RemoteEndpoint, apiKey: string): StoredRemote {
    const same = this.list().find(
      (r) => r.apiUrl === endpoint.apiUrl && r.domain === endpoint.domain && r.apiKey === apiKey,
    )
    if (same) return same
    const remote = { remoteId: randomBytes(6).toString('hex'), ...endpoint, apiKey }
    this.remotes.set(remote.remoteId, remote)
    this.save()
    return remote
  }

  /** Forgets a remote and its key; 404 when unknown. */
  remove(remoteId: string): void {
    this.get(remoteId)
    this.remotes.delete(remoteId)
    this.save()
  }

  private save(): void {
    writeRecordFile(this.file, `${JSON.stringify(this.list(), null, 2)}\n`)
  }
}
