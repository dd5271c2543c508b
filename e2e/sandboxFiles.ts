import type { LocalStack } from './localStack'

/** The runtime of a stack's sandbox, as another client sees it: to check what the UI did on disk. */
export class SandboxFiles {
  private constructor(
    private readonly stack: LocalStack,
    readonly sandboxId: string,
    private readonly accessToken: string,
  ) {}

  /** The default sandbox of a stack. */
  static async of(stack: LocalStack): Promise<SandboxFiles> {
    const { id, token } = await stack.defaultSandbox()
    return new SandboxFiles(stack, id, token)
  }

  /** Any sandbox of a stack, by its id. */
  static async at(stack: LocalStack, sandboxId: string): Promise<SandboxFiles> {
    const res = await stack.api('GET', `/sandboxes/${sandboxId}`)
    if (!res.ok) throw new Error(`sandbox ${sandboxId}: ${res.status} ${await res.text()}`)
    const { envdAccessToken } = (await res.json()) as { envdAccessToken: string }
    return new SandboxFiles(stack, sandboxId, envdAccessToken)
  }

  /** The sandbox's access token (for calls a page makes itself). */
  async token(): Promise<string> {
    return this.accessToken
  }

  // Node cannot resolve *.localhost, so calls go to the router by the E2b-Sandbox-Id header.
  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'X-Access-Token': this.accessToken, 'E2b-Sandbox-Id': this.sandboxId, ...extra }
  }

  /** The entry at a path, or undefined when there is none. */
  async stat(path: string): Promise<{ type?: string; name: string } | undefined> {
    const res = await fetch(`${this.stack.url}/filesystem.Filesystem/Stat`, {
      method: 'POST',
      headers: this.headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ path }),
    })
    if (res.status === 404) return undefined
    if (!res.ok) throw new Error(`Stat ${path}: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { entry: { type?: string; name: string } }).entry
  }

  /** Deletes a file or a folder with everything in it. */
  async remove(path: string): Promise<void> {
    const res = await fetch(`${this.stack.url}/filesystem.Filesystem/Remove`, {
      method: 'POST',
      headers: this.headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ path }),
    })
    if (!res.ok) throw new Error(`Remove ${path}: ${res.status} ${await res.text()}`)
  }

  async read(path: string): Promise<string> {
    const res = await fetch(`${this.stack.url}/files?${new URLSearchParams({ path })}`, {
      headers: this.headers(),
    })
    if (!res.ok) throw new Error(`read ${path}: ${res.status}`)
    return res.text()
  }

  async write(path: string, content: string): Promise<void> {
    const res = await fetch(`${this.stack.url}/files?${new URLSearchParams({ path })}`, {
      method: 'POST',
      headers: this.headers({ 'Content-Type': 'application/octet-stream' }),
      body: content,
    })
    if (!res.ok) throw new Error(`write ${path}: ${res.status} ${await res.text()}`)
  }
}
