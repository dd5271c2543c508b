import { EditorPage } from './pages/EditorPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()

test('a server started in the terminal shows in Ports; its preview sits beside the code, and waits while it is down', async ({
  page,
}, testInfo) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const id = (await stack.defaultSandbox()).id
  await wb.run(
    "mkdir -p ~/site && echo '<h1>Hello preview</h1>' > ~/site/index.html && echo site-ready",
    'site-ready',
  )
  await wb.type('cd ~/site && python3 -m http.server 8000\n')

  const ports = page.getByRole('region', { name: 'Ports' })
  const port = ports.getByRole('listitem', { name: 'Port 8000' })
  await expect(port).toBeVisible({ timeout: 15_000 })
  // The process behind it, by its command line.
  await expect(port).toContainText(/python3 -m http\.server 8000 · pid \d+/)
  // Its own address, E2B's {port}-{sandboxId} form: no token in it.
  const href = await port.getByRole('link', { name: 'Open port 8000 in a new tab' }).getAttribute('href')
  expect(href).toBe(`http://8000-${id}.localhost:${stack.port}/`)

  // The server's own "http://0.0.0.0:8000/" in the terminal leads to the sandbox's port, not this machine's.
  const opened = page.context().waitForEvent('page')
  const at = await wb.pointAt('http://0.0.0.0:8000/', 8)
  await page.mouse.move(at.x, at.y)
  await page.mouse.click(at.x, at.y)
  const tab = await opened
  expect(tab.url()).toBe(`http://8000-${id}.localhost:${stack.port}/`)
  await expect(tab.getByRole('heading', { name: 'Hello preview' })).toBeVisible()
  await tab.close()

  // Chosen so (a kept setting), the same link opens the port in the preview beside the code.
  await wb.command('Terminal: Toggle opening localhost links in the preview (or a new tab)')
  const linkAt = await wb.pointAt('http://0.0.0.0:8000/', 8)
  // Away and back: the link shows itself to a pointer that comes over it.
  await page.mouse.move(linkAt.x, linkAt.y + 40, { steps: 3 })
  await page.mouse.move(linkAt.x + 4, linkAt.y, { steps: 3 })
  await page.mouse.click(linkAt.x + 4, linkAt.y)
  await page.mouse.move(0, 0)
  const preview = page.getByRole('region', { name: 'Preview of port 8000' })
  const frame = preview.frameLocator('iframe[title="Port 8000"]')
  await expect(frame.getByRole('heading', { name: 'Hello preview' })).toBeVisible()
  await expect(preview.locator('iframe')).toHaveAttribute('sandbox', /allow-scripts/)
  await screenshot(page, testInfo, 'preview')

  // The previewed app is another origin, sandboxed: it cannot reach the IDE's page or storage.
  const reach = await frame.locator('body').evaluate(() => {
    const tries: Record<string, string> = {}
    try {
      tries.parent = String(window.parent.document.title)
    } catch (err) {
      tries.parent = (err as Error).name
    }
    try {
      // Its own storage, where the browser gives a frame any: never the IDE's keys.
      tries.storage = String(
        Object.keys(window.localStorage).filter((k) => k.startsWith('sandbox-ide')).length,
      )
    } catch (err) {
      tries.storage = (err as Error).name
    }
    tries.cookie = document.cookie.includes('sandbox_ide') ? 'seen' : 'none'
    return tries
  })
  expect(reach).toMatchObject({ parent: 'SecurityError', cookie: 'none' })
  expect(['0', 'SecurityError']).toContain(reach.storage)

  // Saved in the editor: the preview shows it at once.
  const editor = new EditorPage(page)
  await editor.open('/home/user/site/index.html')
  await editor.editable()
  await editor.typeAtEnd('<p>Saved from the editor</p>')
  await editor.save()
  await expect(frame.getByText('Saved from the editor')).toBeVisible()

  // The server stops: the pane says so; it starts again: the page comes back by itself.
  // Ctrl+C as keys (a U+0003 typed as text is not taken after a click on a link in the screen).
  await wb.terminal.locator('textarea').focus()
  await page.keyboard.press('Control+C')
  await expect(preview.getByRole('status')).toContainText('Port 8000 is closed', { timeout: 15_000 })
  await expect(port).toBeHidden()
  await wb.type('echo "<h1>Back again</h1>" > index.html && python3 -m http.server 8000\n')
  await expect(frame.getByRole('heading', { name: 'Back again' })).toBeVisible({ timeout: 15_000 })

  // Another path, from the address bar.
  await preview.getByRole('textbox', { name: 'Path' }).fill('/missing.html')
  await preview.getByRole('textbox', { name: 'Path' }).press('Enter')
  await expect(frame.getByText('File not found')).toBeVisible()
  // Back and Forward step through the addresses the preview was given.
  await preview.getByRole('button', { name: 'Back' }).click()
  await expect(frame.getByRole('heading', { name: 'Back again' })).toBeVisible()
  await expect(preview.getByRole('textbox', { name: 'Path' })).toHaveValue('/')
  await preview.getByRole('button', { name: 'Forward' }).click()
  await expect(frame.getByText('File not found')).toBeVisible()
  await expect(preview.getByRole('button', { name: 'Forward' })).toBeDisabled()
  await preview.getByRole('button', { name: 'Close preview' }).click()
  await expect(preview).toBeHidden()
  await wb.type('\u0003')
})

/** A page and a WebSocket echo server in one small Node program, as a dev server with live reload has. */
const wsApp = `import { createServer } from 'node:http'
import { createHash } from 'node:crypto'
const page = '<h1>Socket app</h1><p id="reply">waiting</p><script>' +
  'const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live");' +
  'ws.onopen = () => ws.send("ping over the socket");' +
  'ws.onmessage = (e) => { document.getElementById("reply").textContent = "echo: " + e.data };' +
  '</script>'
const server = createServer((req, res) => res.end(page))
server.on('upgrade', (req, socket) => {
  const accept = createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64')
  socket.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: ' + accept + '\\r\\n\\r\\n')
  socket.on('data', (frame) => {
    // One small masked text frame from the browser: unmask it and send it back unmasked.
    const length = frame[1] & 127
    const mask = frame.subarray(2, 6)
    const text = Buffer.from(frame.subarray(6, 6 + length).map((b, i) => b ^ mask[i % 4]))
    socket.write(Buffer.concat([Buffer.from([0x81, text.length]), text]))
  })
})
server.listen(8020)
`

test('a WebSocket app works inside the preview, through the router', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const files = await SandboxFiles.of(stack)
  await files.write('/home/user/ws-app.mjs', wsApp)
  await wb.type('node ~/ws-app.mjs\n')
  const port = page.getByRole('region', { name: 'Ports' }).getByRole('listitem', { name: 'Port 8020' })
  await port.getByRole('button', { name: 'Preview' }).click()
  const frame = page.getByRole('region', { name: 'Preview of port 8020' }).frameLocator('iframe')
  await expect(frame.getByRole('heading', { name: 'Socket app' })).toBeVisible({ timeout: 15_000 })
  await expect(frame.locator('#reply')).toHaveText('echo: ping over the socket')
  await wb.type('\u0003')
})

test('the Ports panel reads the sandbox’s socket tables by signed GETs: no CORS preflight, no token in the request', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await expect(page.getByRole('region', { name: 'Ports' })).toBeVisible()
  // Chromium's own record of the page's requests, preflights included (Playwright leaves them out).
  const cdp = await page.context().newCDPSession(page)
  const reads: { method: string; url: string; headers: Record<string, string> }[] = []
  cdp.on('Network.requestWillBeSent', ({ request }) => {
    if (request.url.includes('/files?path=%2Fproc%2Fnet%2Ftcp')) reads.push(request)
  })
  await cdp.send('Network.enable')
  // The panel looks twice a second.
  await expect
    .poll(() => reads.filter((r) => r.method === 'GET').length, { timeout: 10_000 })
    .toBeGreaterThan(4)
  expect(reads.filter((r) => r.method === 'OPTIONS')).toEqual([])
  const { token } = await stack.defaultSandbox()
  for (const { url, headers } of reads) {
    expect(new URL(url).searchParams.get('signature')).toMatch(/^v1_/)
    expect(url).not.toContain(token)
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('x-access-token')
  }
})
