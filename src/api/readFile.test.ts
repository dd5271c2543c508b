// readFile against a real runtime: by a signed GET, which a browser
// sends with no CORS preflight, and by the token's header where the runtime refuses the signature.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../server/runtime/testing/runtimeFixture'
import { readFile } from './files'

describe('readFile', () => {
  let rt: TestRuntime
  /** What the page's fetch sent: the URL and whether the token went in a header. */
  let sent: { url: URL; header: boolean }[] = []
  /** Spoils each signature on its way, as a runtime that cannot check them refuses them. */
  let spoilSignatures = false
  beforeAll(async () => {
    rt = await startTestRuntime()
    const realFetch = globalThis.fetch
    const written = await realFetch(`${rt.url}/files?path=${rt.home}/a.txt`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'application/octet-stream' },
      body: 'hello',
    })
    expect(written.ok).toBe(true)
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input))
      if (spoilSignatures && url.searchParams.has('signature')) url.searchParams.set('signature', 'v1_spoilt')
      sent.push({ url, header: new Headers(init?.headers).has('x-access-token') })
      return realFetch(url, init)
    })
  })
  afterEach(() => {
    sent = []
    spoilSignatures = false
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await rt.close()
  })
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

  it('reads by a signed URL, the token in neither the URL nor a header', async () => {
    const endpoint = { runtimeUrl: rt.url, accessToken: rt.token ?? null }
    expect(text(await readFile(endpoint, `${rt.home}/a.txt`))).toBe('hello')
    expect(sent).toHaveLength(1)
    const [{ url, header }] = sent as [{ url: URL; header: boolean }]
    expect(url.searchParams.get('signature')).toMatch(/^v1_/)
    expect(url.href).not.toContain(rt.token)
    expect(header).toBe(false)
  })

  it('passes on the runtime’s error for a file that is not there', async () => {
    const endpoint = { runtimeUrl: rt.url, accessToken: rt.token ?? null }
    await expect(readFile(endpoint, `${rt.home}/missing.txt`)).rejects.toMatchObject({ status: 404 })
    expect(sent).toHaveLength(1)
  })

  it('a wrong token still fails, with the runtime’s 401, and signatures are still tried after it', async () => {
    const endpoint = { runtimeUrl: rt.url, accessToken: 'not-the-token' }
    await expect(readFile(endpoint, `${rt.home}/a.txt`)).rejects.toMatchObject({ status: 401 })
    expect(sent.map((s) => s.header)).toEqual([false, true])
  })

  it('falls back to the header when the signature is refused (a page clock far behind the sandbox’s, an envd without them), and stays with it', async () => {
    spoilSignatures = true
    // Last: the refusal is remembered for the runtime.
    const endpoint = { runtimeUrl: rt.url, accessToken: rt.token ?? null }
    expect(text(await readFile(endpoint, `${rt.home}/a.txt`))).toBe('hello')
    expect(sent.map((s) => s.header)).toEqual([false, true])
    expect(text(await readFile(endpoint, `${rt.home}/a.txt`))).toBe('hello')
    expect(sent.map((s) => s.header)).toEqual([false, true, true])
  })
})
