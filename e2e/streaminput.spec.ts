import { expect, type Page, test } from '@playwright/test'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { freePort, LocalStack } from './stack'

// Keystrokes by StreamInput through the local stack's WebSocket tunnel, or where the page reaches
// the runtime over HTTPS with HTTP/2 in Chromium (as on E2B, tried here with the tunnel refused);
// by SendInput everywhere else and whenever a stream fails; always in order.

test.describe.configure({ mode: 'serial' })

/** Every runtime RPC the page makes, as `Method` names, and the HTTP version of each answer. */
async function watchRpcs(page: Page) {
  const calls: string[] = []
  const protocols = new Map<string, Set<string>>()
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (!path.startsWith('/process.Process/')) return
    const method = path.slice('/process.Process/'.length)
    // A terminal's Start apart from the others (source control's git, the search's rg).
    const terminal = method === 'Start' && request.postDataBuffer()?.includes('ide-terminal')
    calls.push(terminal ? 'Start a terminal' : method)
  })
  // Playwright does not say which HTTP version a request used; the DevTools protocol does.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  cdp.on('Network.responseReceived', ({ response }) => {
    const path = new URL(response.url).pathname
    if (!path.startsWith('/process.Process/')) return
    const method = path.slice('/process.Process/'.length)
    protocols.set(method, new Set([...(protocols.get(method) ?? []), response.protocol ?? '?']))
  })
  const fallbacks: string[] = []
  // The terminal's own; the co-editing relay's input (`ide-collab-relay stdin`) falls back apart.
  page.on('console', (message) => {
    if (message.text().startsWith('terminal input: StreamInput failed')) fallbacks.push(message.text())
  })
  return { calls, protocols, fallbacks, count: (method: string) => calls.filter((c) => c === method).length }
}

/** Types text as quick keystrokes (one key event each) and runs it, checking it came back whole. */
const burst = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(3)

test.describe('over HTTPS (--tls) with the tunnel refused, as on E2B', () => {
  test.use({ ignoreHTTPSErrors: true })
  let stack: LocalStack
  test.beforeAll(async () => {
    stack = new LocalStack(await freePort(), ['--tls', '--no-http-tunnel'])
    await stack.start()
  })
  test.afterAll(() => stack.dispose())

  test('keystrokes go by StreamInput over HTTP/2, whole and in order', async ({ page }) => {
    const rpcs = await watchRpcs(page)
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    expect(stack.url).toMatch(/^https:/)
    await wb.run('echo stream-$((6*7))', 'stream-42')
    // A fast burst of keys: each goes out as it is typed, none lost or swapped.
    await wb.run(`echo ${burst} | rev`, burst.split('').reverse().join(''))
    expect(rpcs.count('StreamInput')).toBeGreaterThan(0)
    expect(rpcs.count('SendInput')).toBe(0)
    expect(rpcs.fallbacks).toEqual([])
    await expect.poll(() => [...(rpcs.protocols.get('StreamInput') ?? [])]).toEqual(['h2'])
  })

  test('a big paste goes out in acknowledged pieces and arrives intact', async ({ page }) => {
    const rpcs = await watchRpcs(page)
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    // 200 KiB in short lines (a tty in canonical mode takes at most 4095 bytes a line).
    const lines = Array.from({ length: 2560 }, (_, i) => `${String(i).padStart(5, '0')} ${'x'.repeat(73)}\n`)
    const text = lines.join('')
    await wb.run('stty -echo; cat > /tmp/paste.txt', '$')
    // A paste event, as Ctrl+Shift+V gives, without needing the clipboard.
    await wb.terminal.locator('textarea').evaluate((textarea, pasted) => {
      const data = new DataTransfer()
      data.setData('text/plain', pasted)
      textarea.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      )
    }, text)
    await page.keyboard.press('Control+D')
    await wb.type('stty echo; wc -c < /tmp/paste.txt; tail -n 1 /tmp/paste.txt\n')
    // This checks that the paste arrives whole, not how fast: on a loaded machine it may still be
    // on its way for more than the usual 5 s (CI saw it once over --tls).
    await expect(wb.terminalRows).toContainText(`${text.length}`, { timeout: 30_000 })
    await expect(wb.terminalRows).toContainText(lines.at(-1)?.trim() ?? '')
    // At most 64 KiB a call: four or more calls, and no SendInput.
    expect(rpcs.count('StreamInput')).toBeGreaterThanOrEqual(4)
    expect(rpcs.count('SendInput')).toBe(0)
  })

  test('a StreamInput that fails falls back to SendInput, and what was typed arrives once, in order', async ({
    page,
  }) => {
    const rpcs = await watchRpcs(page)
    // The first call streams through; every one opened after it fails as a dropped connection
    // would (the co-editing relay's too, which falls back on its own).
    let failing = false
    await page.route('**/process.Process/StreamInput', async (route) => {
      if (failing) await route.abort('connectionreset')
      else await route.continue()
    })
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    await wb.run('echo first-$((1+1))', 'first-2')
    await expect.poll(() => rpcs.count('StreamInput')).toBeGreaterThanOrEqual(1)
    expect(rpcs.count('SendInput')).toBe(0) // the first call streamed it all on its own
    failing = true
    // The first call is acknowledged after a second of quiet; the next one then fails.
    await page.waitForTimeout(1500)
    await wb.run(`echo ${burst}-$((2+3))`, `${burst}-5`)
    await wb.run('echo after-$((3+4))', 'after-7')
    expect(rpcs.fallbacks).toHaveLength(1)
    expect(rpcs.count('SendInput')).toBeGreaterThan(0)
    const text = await wb.terminalText()
    // Each command ran exactly once (its output line once, besides the echoed command line).
    expect(text.split('\n').filter((line) => line === `${burst}-5`)).toHaveLength(1)
    expect(text.split('\n').filter((line) => line === 'after-7')).toHaveLength(1)
  })

  test('a browser that cannot stream at all (the first call fails) loses nothing', async ({ page }) => {
    const rpcs = await watchRpcs(page)
    await page.route('**/process.Process/StreamInput', (route) => route.abort('failed'))
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    await wb.run(`echo ${burst} | rev`, burst.split('').reverse().join(''))
    expect(rpcs.fallbacks).toHaveLength(1)
    // The call opened ahead when the terminal attached fails quietly; the first keystroke's
    // own call fails too, and that one switches the terminal to SendInput (the co-editing
    // relay's calls fail beside them).
    expect(rpcs.count('StreamInput')).toBeGreaterThanOrEqual(2)
    expect(rpcs.count('SendInput')).toBeGreaterThan(0)
  })
})

test.describe('over plain HTTP', () => {
  let stack: LocalStack
  let untunnelled: LocalStack
  test.beforeAll(async () => {
    stack = new LocalStack(await freePort())
    untunnelled = new LocalStack(await freePort(), ['--no-http-tunnel'])
    await Promise.all([stack.start(), untunnelled.start()])
  })
  test.afterAll(() => Promise.all([stack.dispose(), untunnelled.dispose()]))

  test('keystrokes go by StreamInput through the tunnel, whole and in order', async ({ page }) => {
    const rpcs = await watchRpcs(page)
    // The tunnel's WebSockets, by the call each carries, and the keystroke frames sent on them.
    const sockets: string[] = []
    let framesSent = 0
    page.on('websocket', (ws) => {
      const path = new URL(ws.url()).pathname
      sockets.push(path)
      if (path === '/process.Process/StreamInput') ws.on('framesent', () => framesSent++)
    })
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    await wb.run(`echo ${burst} | rev`, burst.split('').reverse().join(''))
    expect(sockets).toContain('/process.Process/StreamInput')
    expect(sockets).toContain('/process.Process/Start')
    expect(framesSent).toBeGreaterThan(burst.length)
    // Nothing went by a request of its own per key, and no stream by fetch.
    expect(rpcs.count('SendInput')).toBe(0)
    expect(rpcs.count('StreamInput')).toBe(0)
    expect(rpcs.count('Start')).toBe(0)
    expect(rpcs.fallbacks).toEqual([])
  })

  test('where the tunnel is refused keystrokes go by SendInput only, and arrive in order', async ({
    page,
  }) => {
    const rpcs = await watchRpcs(page)
    const wb = new WorkbenchPage(page)
    await wb.goto(untunnelled.link())
    await wb.run(`echo ${burst} | rev`, burst.split('').reverse().join(''))
    expect(rpcs.count('SendInput')).toBeGreaterThan(0)
    // No StreamInput request went out: over HTTP/1.1 it could not have streamed.
    expect(rpcs.count('StreamInput')).toBe(0)
    expect(rpcs.fallbacks.join('\n')).toMatch(/tunnel: it could not be opened/)
    // Streams go by fetch, each on a host shard of its own: the terminal's one.
    expect(rpcs.count('Start a terminal')).toBe(1)
  })
})
