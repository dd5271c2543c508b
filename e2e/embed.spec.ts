import { chromiumLaunchOptions } from './chromium'
import { EmbedParentPage, type RecordedEvent } from './pages/EmbedParentPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { freePort, LocalStack, stackForThisFile } from './stack'

// The IDE inside pages of other origins (issue 8): the handshake, commands, consent, events,
// the allowlist at both layers (CSP frame-ancestors and postMessage origins), and URL options.
test.describe.configure({ mode: 'serial' })
// Test parent pages are answered by Playwright (page.route), and Chromium's Local Network Access
// counts such answers as public pages, which may not load the loopback IDE. Real parent pages are
// served by a real server (the demo test uses the stack's own); this lifts that check only.
const launch = chromiumLaunchOptions()
test.use({
  launchOptions: { ...launch, args: [...(launch.args ?? []), '--disable-features=LocalNetworkAccessChecks'] },
})

const stack = stackForThisFile()
let files: SandboxFiles

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

const exited = (events: RecordedEvent[]) =>
  events.filter((e) => e.event === 'processExited').map((e) => e.data)

test('the demo page embeds the IDE, opens a file, and runs a command once the user agrees', async ({
  page,
}) => {
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoDemo()
  const log = page.getByRole('log', { name: 'Events' })
  // No app chrome in an embed, and the token never in a URL.
  await expect(parent.ide.getByRole('tree', { name: 'Files' })).toBeVisible()
  await expect(parent.ide.getByRole('heading', { name: 'Sandbox IDE' })).toHaveCount(0)
  expect(
    page
      .frames()
      .map((f) => f.url())
      .join(' '),
  ).not.toContain(await files.token())

  await page.getByRole('button', { name: 'Open hello.py' }).click()
  // One tab, however the path was spelled (relative here, absolute once resolved).
  const tab = parent.ide.getByRole('tab', { name: /^hello\.py/ })
  await expect(tab).toHaveCount(1)
  await expect(tab).toHaveAttribute('aria-selected', 'true')
  await expect(parent.ide.locator('.monaco-editor .view-lines')).toContainText('Hello from the sandbox!')

  await page.getByRole('button', { name: 'Run python3 hello.py' }).click()
  await expect(parent.consent).toBeVisible()
  await expect(parent.consent).toContainText(parent.demoOrigin)
  await expect(parent.consent).toContainText('python3 hello.py')
  // The safe answer has the dialog's focus: Enter alone never runs a command. Whether the frame
  // itself has the page's focus is the browser's call (a cross-origin frame does not take it from
  // the parent page the user last clicked), so the frame's own active element is what is checked.
  await expect
    .poll(() =>
      parent.consent
        .getByRole('button', { name: "Don't run" })
        .evaluate((button) => button.ownerDocument.activeElement === button),
    )
    .toBe(true)
  await parent.consent.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(log).toContainText('processExited')
  await expect(log).toContainText('"exitCode":0')
  await expect.poll(() => parent.terminalText()).toContain('Hello from the sandbox!')

  // Declined: nothing runs, and the parent hears why.
  await page.getByRole('button', { name: 'Run python3 hello.py' }).click()
  await parent.consent.getByRole('button', { name: "Don't run" }).click()
  await expect(log).toContainText('run failed (declined)')
})

test('commands and events over the typed client: files, layout, theme, exit codes', async ({ page }) => {
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent('panels=editor,terminal&theme=dark')
  await expect(parent.ide.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(parent.ide.getByRole('tree', { name: 'Files' })).toHaveCount(0)

  // writeFile and readFile reach the disk, checked by another client.
  expect(await parent.call('writeFile', 'embed-test/notes.txt', 'line one\nünïcödé\n')).toEqual({
    result: null,
  })
  expect(await files.read('/home/user/embed-test/notes.txt')).toBe('line one\nünïcödé\n')
  expect(await parent.call('readFile', 'embed-test/notes.txt')).toEqual({ result: 'line one\nünïcödé\n' })
  expect(await parent.call('readFile', 'embed-test/missing.txt')).toMatchObject({
    error: { code: 'failed', message: "path '/home/user/embed-test/missing.txt' does not exist" },
  })

  // Open, edit and save in the IDE: the parent hears fileSaved.
  expect(await parent.call('openFile', 'embed-test/notes.txt')).toEqual({ result: null })
  const editor = parent.ide.locator('.code-editor:not([hidden]) .monaco-editor')
  await editor.locator('.view-lines').click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type('line three')
  await page.keyboard.press('Control+S')
  await expect
    .poll(async () => (await parent.events()).filter((e) => e.event === 'fileSaved'))
    .toEqual([{ event: 'fileSaved', data: { path: '/home/user/embed-test/notes.txt' } }])
  expect(await files.read('/home/user/embed-test/notes.txt')).toBe('line one\nünïcödé\nline three')

  // A command's exit code, through consent.
  await parent.start('runCommand', 'echo from-embed; exit 7')
  await parent.consent.getByRole('button', { name: 'Run', exact: true }).click()
  expect(await parent.pending()).toMatchObject({ result: { pid: expect.any(Number) } })
  await expect
    .poll(async () => exited(await parent.events()))
    .toContainEqual(expect.objectContaining({ command: 'echo from-embed; exit 7', exitCode: 7 }))

  // Layout and theme.
  expect(await parent.call('setLayout', ['files', 'terminal'])).toEqual({ result: null })
  await expect(parent.ide.getByRole('tree', { name: 'Files' })).toBeVisible()
  await expect(parent.ide.getByRole('region', { name: 'Editor' })).toHaveCount(0)
  expect(await parent.call('setTheme', 'light')).toEqual({ result: null })
  await expect(parent.ide.locator('html')).toHaveAttribute('data-theme', 'light')

  // Bad requests get a clear error and change nothing.
  expect(await parent.call('setLayout', ['files', 'debugger'])).toMatchObject({ error: { code: 'invalid' } })
  expect(await parent.call('setTheme', 'pink')).toMatchObject({ error: { code: 'invalid' } })
  expect(await parent.call('openFile', '')).toMatchObject({ error: { code: 'invalid' } })
  await expect(parent.ide.getByRole('tree', { name: 'Files' })).toBeVisible()
})

test('a command in the embed link waits for consent too, and the link cannot carry a token', async ({
  page,
}) => {
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent(`panels=terminal&run=${encodeURIComponent('echo linked-command; exit 3')}`)
  await expect(parent.consent).toContainText('echo linked-command; exit 3')
  await expect(parent.consent).toContainText('in the embed link')
  await parent.consent.getByRole('button', { name: 'Run', exact: true }).click()
  await expect
    .poll(async () => exited(await parent.events()))
    .toContainEqual(expect.objectContaining({ command: 'echo linked-command; exit 3', exitCode: 3 }))
  // An invalid link says what is wrong instead of half-working.
  await page.goto(`${stack.url}/embed?panels=files,debugger`)
  await expect(page.getByRole('alert')).toContainText("unknown panel 'debugger'")
})

test('a read-only embed refuses edits from the parent and the user', async ({ page }) => {
  await files.write('/home/user/embed-test/readonly.txt', 'keep me\n')
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent('readonly=1&open=embed-test/readonly.txt')
  expect(await parent.call('writeFile', 'embed-test/readonly.txt', 'changed')).toMatchObject({
    error: { code: 'denied', message: 'this embed is read-only' },
  })
  await expect(parent.ide.getByTestId('editor-readonly')).toContainText('read-only')
  await expect(parent.ide.getByRole('button', { name: 'New file' })).toBeDisabled()
  expect(await files.read('/home/user/embed-test/readonly.txt')).toBe('keep me\n')
})

test('a page not on the allowlist can neither frame the IDE nor hand it a sandbox', async ({
  page,
  context,
}) => {
  const parent = new EmbedParentPage(page, stack)
  const evil = `http://evil.localhost:${stack.port}`
  const warnings: string[] = []
  page.on('console', (m) => warnings.push(m.text()))
  // Layer 1: CSP frame-ancestors keeps the IDE out of the frame.
  await parent.gotoTestParent('', { origin: evil, connect: false })
  await expect(parent.ide.getByText('Waiting for the page to connect a sandbox')).toHaveCount(0)
  await page.waitForTimeout(500)
  await expect(parent.ide.locator('body')).not.toContainText('Waiting')

  // Layer 2: where no CSP is sent (a static host), the IDE loads but ignores the evil handshake.
  await context.route(`${stack.url}/embed*`, async (route) => {
    const response = await route.fetch()
    const headers = { ...response.headers() }
    delete headers['content-security-policy']
    await route.fulfill({ response, headers })
  })
  await page.reload()
  await expect(parent.ide.getByRole('status')).toContainText('Waiting for the page to connect a sandbox')
  // As a real parent does (the typed client too): connect once the IDE has said hello, that is,
  // listens; a message sent before that would be lost for a reason that is not the one tested.
  await page.waitForFunction(() => 'helloFrom' in window)
  const { token, id } = await stack.defaultSandbox()
  await page.evaluate(
    ({ runtimeUrl, accessToken }) => {
      const frame = document.getElementById('ide') as HTMLIFrameElement
      const channel = new MessageChannel()
      channel.port1.onmessage = (e) => {
        ;(window as unknown as { answered: unknown }).answered = e.data
      }
      const message = { type: 'sandbox-ide:connect', protocol: 'sandbox-ide/1', runtimeUrl, accessToken }
      frame.contentWindow?.postMessage(message, '*', [channel.port2])
    },
    { runtimeUrl: `http://49983-${id}.localhost:${stack.port}`, accessToken: token },
  )
  await expect.poll(() => warnings.join('\n')).toContain(`embed: ignored a connect from ${evil}`)
  await page.waitForTimeout(500)
  await expect(parent.ide.getByRole('status')).toContainText('Waiting for the page to connect a sandbox')
  expect(await page.evaluate(() => (window as unknown as { answered?: unknown }).answered)).toBeUndefined()
  expect(await page.evaluate(() => (window as unknown as { helloFrom?: string }).helloFrom)).toBe(stack.url)
})

test('without clipboard permission, keyboard paste and copy still work, and right-click says why it cannot', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent('panels=terminal')
  const screen = parent.ide.locator('.xterm-screen').first()
  await expect(screen).toBeVisible()
  await expect.poll(() => parent.terminalText()).toMatch(/\$ ?$/)

  // Ctrl+Shift+V is the browser's own paste, which needs no permission.
  await page.evaluate(() => navigator.clipboard.writeText('echo embedded-$((4+5)) > ~/embedded.txt'))
  await parent.ide.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.press('Control+Shift+V')
  await page.keyboard.press('Enter')
  await expect.poll(() => files.read('/home/user/embedded.txt').catch(() => '')).toBe('embedded-9\n')

  // Copy falls back to the copy command when the Clipboard API is refused.
  await page.evaluate(() => navigator.clipboard.writeText('before'))
  await screen.dblclick({ position: { x: 12, y: 8 } })
  await page.keyboard.press('Control+Shift+C')
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^user/)

  // Right-click needs the Clipboard API to read: it says why it failed and what works instead.
  await screen.click({ button: 'right', position: { x: 30, y: 8 } })
  await expect(parent.ide.getByRole('alert').filter({ hasText: 'Pasting failed' })).toContainText(
    'Ctrl+Shift+V',
  )
})

test('with allow="clipboard-read; clipboard-write", right-click pastes in the embedded terminal', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent('panels=terminal', { allow: 'clipboard-read; clipboard-write' })
  const screen = parent.ide.locator('.xterm-screen').first()
  await expect.poll(() => parent.terminalText()).toMatch(/\$ ?$/)
  await page.evaluate(() => navigator.clipboard.writeText('echo allowed-$((2+3)) > ~/allowed.txt'))
  await screen.click({ button: 'right', position: { x: 30, y: 8 } })
  // Bracketed paste: the shell holds the pasted line until Enter.
  await expect.poll(() => parent.terminalText()).toContain('echo allowed-$((2+3)) > ~/allowed.txt')
  await parent.ide.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.press('Enter')
  await expect.poll(() => files.read('/home/user/allowed.txt').catch(() => '')).toBe('allowed-5\n')
  await expect(parent.ide.getByRole('alert')).toHaveCount(0)
})

test.describe('a trusted parent', () => {
  let trustedStack: LocalStack
  test.beforeAll(async () => {
    const port = await freePort()
    trustedStack = new LocalStack(port, ['--trust-origin', `http://trusted.localhost:${port}`])
    await trustedStack.start()
  })
  test.afterAll(() => trustedStack.dispose())

  test('previews a port once it opens, and tells the parent as ports open and close', async ({ page }) => {
    const parent = new EmbedParentPage(page, trustedStack)
    await parent.gotoTestParent('panels=terminal&preview=8123', {
      origin: `http://trusted.localhost:${trustedStack.port}`,
    })
    const preview = parent.ide.getByRole('region', { name: 'Preview of port 8123' })
    await expect(preview.getByRole('status')).toContainText('Port 8123 is closed')
    await parent.call(
      'runCommand',
      "mkdir -p ~/emb && cd ~/emb && echo '<h1>Embedded app</h1>' > index.html && exec python3 -m http.server 8123",
    )
    const frame = preview.frameLocator('iframe[title="Port 8123"]')
    await expect(frame.getByRole('heading', { name: 'Embedded app' })).toBeVisible({ timeout: 15_000 })
    await expect
      .poll(async () => (await parent.events()).filter((e) => e.event === 'portOpened'))
      .toContainEqual({ event: 'portOpened', data: { port: 8123 } })

    expect(await parent.call('openPreview', 8123, '/missing.html')).toEqual({ result: null })
    await expect(frame.getByText('File not found')).toBeVisible()
    expect(await parent.call('openPreview', 0)).toMatchObject({ error: { code: 'invalid' } })

    await parent.call('runCommand', 'pkill -f "http.server 8123"')
    await expect
      .poll(async () => (await parent.events()).filter((e) => e.event === 'portClosed'))
      .toContainEqual({ event: 'portClosed', data: { port: 8123 } })
  })

  test('runs commands without asking', async ({ page }) => {
    const parent = new EmbedParentPage(page, trustedStack)
    await parent.gotoTestParent('panels=terminal', {
      origin: `http://trusted.localhost:${trustedStack.port}`,
    })
    expect(await parent.call('runCommand', 'exit 0')).toMatchObject({ result: { pid: expect.any(Number) } })
    await expect(parent.consent).toBeHidden()
    await expect
      .poll(async () => exited(await parent.events()))
      .toContainEqual(expect.objectContaining({ command: 'exit 0', exitCode: 0 }))
  })
})
