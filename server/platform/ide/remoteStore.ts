import { randomBytes } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { PlatformError } from '../platformError'
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
 * through a temporary file and a rename, so a crash never leaves half a file (or half a key).
 */
export class RemoteStore {
  private readonly file: string
  private readonly remotes = new Map<string, StoredRemote>()

  constructor(dataDir: string) {
    this.file = join(dataDir, 'remotes.json')
    let text: string | undefined
    try {
      text = readFileSync(this.file, 'utf8')
    } catch {}
    if (text === undefined) return
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      // JSON.parse quotes the text it failed on, which here holds API keys.
      json = undefined
    }
    const parsed = storedRemotes.safeParse(json)
    if (!parsed.success) throw new Error(`${this.file} does not hold a list of remotes`)
    for (const remote of parsed.data) this.remotes.set(remote.remoteId, remote)
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
    const temp = `${this.file}.${process.pid}.tmp`
    // A leftover temporary file would keep its own mode: start from none.
    rmSync(temp, { force: true })
    writeFileSync(temp, `${JSON.stringify(this.list(), null, 2)}\n`, { mode: 0o600 })
    renameSync(temp, this.file)
  }
}
