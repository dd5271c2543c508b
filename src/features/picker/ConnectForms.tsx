import { type FormEvent, useState } from 'react'
import { localStack } from '../../sandbox/localStack'
import type { SandboxAddress } from '../../sandbox/sandboxAddress'

/**
 * Opens an E2B sandbox by id: the API key goes to the local stack, which keeps it and forwards
 * platform calls; the browser never stores it.
 */
export function ConnectE2BForm({ onOpen }: { onOpen(address: SandboxAddress): void }) {
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const field = (name: string) => String(form.get(name) ?? '').trim()
    setBusy(true)
    setError(undefined)
    try {
      const remote = await localStack.addRemote(
        field('apiKey'),
        field('apiUrl') || undefined,
        field('domain') || undefined,
      )
      onOpen({ source: 'e2b', remoteId: remote.remoteId, sandboxId: field('sandboxId') })
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="connect-form" aria-label="Connect to E2B" onSubmit={submit}>
      <h3>Connect to an E2B sandbox</h3>
      <label>
        Sandbox id
        <input name="sandboxId" required autoComplete="off" spellCheck={false} />
      </label>
      <label>
        API key
        <input name="apiKey" type="password" required autoComplete="off" />
      </label>
      <details>
        <summary>Advanced</summary>
        <label>
          API URL
          <input name="apiUrl" placeholder="https://api.e2b.app" autoComplete="off" />
        </label>
        <label>
          Sandbox domain
          <input name="domain" placeholder="e2b.app" autoComplete="off" />
        </label>
      </details>
      {error && <p role="alert">{error}</p>}
      <button type="submit" className="primary" disabled={busy}>
        Connect
      </button>
    </form>
  )
}

/** Opens a runtime directly by URL and access token (no platform: no pause or timeouts). */
export function ConnectRuntimeForm({ onOpen }: { onOpen(address: SandboxAddress): void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const runtimeUrl = String(form.get('runtimeUrl') ?? '')
      .trim()
      .replace(/\/$/, '')
    onOpen({ source: 'runtime', runtimeUrl, accessToken: String(form.get('accessToken') ?? '') })
  }
  return (
    <form className="connect-form" aria-label="Connect to a runtime" onSubmit={submit}>
      <h3>Connect to a runtime URL</h3>
      <label>
        Runtime URL
        <input
          name="runtimeUrl"
          type="url"
          required
          placeholder="https://49983-….e2b.app"
          autoComplete="off"
        />
      </label>
      <label>
        Access token
        <input name="accessToken" type="password" autoComplete="off" />
      </label>
      <button type="submit">Connect</button>
    </form>
  )
}
