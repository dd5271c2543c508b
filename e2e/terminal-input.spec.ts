import { createHash } from 'node:crypto'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
})

/** Text of exactly `bytes` UTF-8 bytes in short lines (a tty in canonical mode takes at most 4095 a line). */
function knownText(bytes: number): string {
  const lines: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const line = `${String(i).padStart(6, '0')} naïve café 漢字 ${'abcdefghijklmnopqrstuvwxyz'.repeat(3)}\n`
    lines.push(line)
    size += Buffer.byteLength(line)
  }
  const text = lines.join('')
  // Trim to the byte count on a whole line, then pad the last line with ASCII.
  const whole = Buffer.from(text)
    .subarray(0, bytes)
    .toString()
    .replace(/[^\n]*$/, '')
  const missing = bytes - Buffer.byteLength(whole)
  return missing > 0 ? `${whole}${'z'.repeat(missing - 1)}\n` : whole
}

test('a 1 MiB paste (Ctrl+Shift+V) arrives intact', async ({ page }) => {
  test.setTimeout(180_000)
  const text = knownText(1 << 20)
  expect(Buffer.byteLength(text)).toBe(1 << 20)
  const sha = createHash('sha256').update(text).digest('hex')
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await page.evaluate((t) => navigator.clipboard.writeText(t), text)
  // Paste once cat runs: until then bash's prompt still has bracketed paste on, and cat would get the markers.
  await wb.run('echo cat-$((1+1))-reads; cat > /tmp/p.txt', 'cat-2-reads')
  await page.keyboard.press('Control+Shift+V')
  // Input keeps its order, so the end of input comes after the last pasted byte.
  await page.keyboard.press('Control+D')
  await wb.type('clear; sha256sum /tmp/p.txt; wc -c < /tmp/p.txt\n')
  await expect(wb.terminalRows).toContainText(`${sha}  /tmp/p.txt`, { timeout: 150_000 })
  await expect(wb.terminalRows).toContainText(String(1 << 20))
})

test('a paste is bracketed when the program asks for it, and arrives intact', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  // A program that turned bracketed paste on gets the markers around the text, and the text as it was.
  await wb.run("printf '\\e[?2004h'; echo bracketed-$((6*7)); cat > /tmp/b.txt", 'bracketed-42')
  await page.evaluate(() => navigator.clipboard.writeText('first line\nsecond\tline'))
  await page.keyboard.press('Control+Shift+V')
  await page.keyboard.press('Enter')
  await page.keyboard.press('Control+D')
  await wb.run('clear; cat -A /tmp/b.txt', 'second^Iline^[[201~$')
  expect(await wb.terminalText()).toContain('^[[200~first line$\nsecond^Iline^[[201~$')

  // Bash asks for it at its prompt: a pasted line is not run until Enter, so ^C drops it unrun.
  await wb.prompt()
  await page.evaluate(() => navigator.clipboard.writeText('echo pasted-$((3+4))\n'))
  await page.keyboard.press('Control+Shift+V')
  await page.keyboard.press('Control+C')
  await wb.run('echo after-$((5+5))', 'after-10')
  expect(await wb.terminalText()).not.toContain('pasted-7')
})

test('right-click pastes; Ctrl+W and friends go to the shell', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await page.evaluate(() => navigator.clipboard.writeText('echo right-$((3*3))-click'))
  await wb.terminal.locator('.xterm-screen').click({ button: 'right', position: { x: 30, y: 10 } })
  // Reading the clipboard takes a moment; Enter must come after the pasted line.
  await expect(wb.terminalRows).toContainText('echo right-$((3*3))-click')
  await page.keyboard.press('Enter')
  await expect(wb.terminalRows).toContainText('right-9-click')

  // The browser keeps Ctrl+W outside fullscreen; what reaches the page goes to readline (unix-word-rubout).
  await wb.type('echo kept-$((1+1)) dropped-word')
  await page.keyboard.press('Control+W')
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await wb.terminalText()).split('\n')).toContain('kept-2')
})

test('Ctrl+Shift+C copies the selection; Ctrl+C copies one too, and is ^C without one', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await wb.run('echo copy-$((40+2))-me; echo other-$((40+3))-word', 'other-43-word')
  await page.evaluate(() => navigator.clipboard.writeText('before'))
  await wb.selectWord('copy-42-me')
  await page.keyboard.press('Control+Shift+C')
  await expect.poll(() => wb.clipboard()).toBe('copy-42-me')

  await wb.selectWord('other-43-word')
  await page.keyboard.press('Control+C')
  await expect.poll(() => wb.clipboard()).toBe('other-43-word')
  // The copy cleared the selection, so the next Ctrl+C interrupts: once the command runs in the
  // foreground (it says so, then becomes the sleep), not while the shell is still starting it.
  await wb.run("bash -c 'echo sleeping-$((2+2)); exec sleep 30'", 'sleeping-4')
  await page.keyboard.press('Control+C')
  await wb.run('echo interrupted-$((2*3))', 'interrupted-6')
})

test('copy on selection, when turned on, copies what the mouse selects', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await wb.run('echo selected-$((7*7))-text', 'selected-49-text')
  await page.evaluate(() => navigator.clipboard.writeText('before'))
  await wb.selectWord('selected-49-text')
  await page.waitForTimeout(300)
  expect(await wb.clipboard()).toBe('before')

  await wb.command('Terminal: Toggle copy on selection')
  await wb.selectWord('selected-49-text')
  await expect.poll(() => wb.clipboard()).toBe('selected-49-text')
  // The option is kept across a reload.
  await page.reload()
  await wb.run('echo again-$((8*8))', 'again-64')
  await wb.selectWord('again-64')
  await expect.poll(() => wb.clipboard()).toBe('again-64')
})

test('find (Ctrl+Shift+F) highlights every match, selects the current one, and Escape returns', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  // The quotes keep the command line itself from matching.
  await wb.run("clear; echo nee''dle-{1..3}", 'needle-1 needle-2 needle-3')
  await wb.terminal.locator('textarea').focus()
  await page.keyboard.press('Control+Shift+F')
  const box = wb.terminal.getByRole('searchbox', { name: 'Find in terminal' })
  await expect(box).toBeFocused()
  await box.fill('needle')
  const search = wb.terminal.getByRole('search', { name: 'Find in terminal' })
  await expect(search).toContainText(/[123] of 3/)
  // Every match is outlined (the current one gets a decoration of its own on top).
  const highlights = wb.terminal.locator('.xterm-find-result-decoration')
  await expect.poll(() => highlights.count()).toBeGreaterThanOrEqual(3)
  const first = await search.textContent()
  await box.press('Enter')
  await expect(search).not.toHaveText(first ?? '')
  await box.press('Shift+Enter')
  await expect(search).toHaveText(first ?? '')

  await box.press('Escape')
  await expect(search).toBeHidden()
  await expect(wb.terminal.locator('textarea')).toBeFocused()
  await expect(highlights).toHaveCount(0)
  // The match stays selected, so it can be copied.
  await page.keyboard.press('Control+Shift+C')
  await expect.poll(() => wb.clipboard()).toBe('needle')

  await wb.command('Terminal: Find')
  await expect(box).toBeFocused()
})

test('a printed URL is a link that opens in a new tab without a handle on the IDE', async ({
  page,
  context,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  // A host that is not this machine's loopback name (those lead to the sandbox's own ports).
  const site = `http://embed-demo.localhost:${stack.port}`
  await wb.run(`echo ${site}/linked-$((6*7))`, `${site}/linked-42`)
  const { x, y } = await wb.pointAt(`${site}/linked-42`, 3)
  await page.mouse.move(x, y)
  await expect(wb.terminal.locator('.xterm-screen')).toHaveClass(/xterm-cursor-pointer/)
  const opened = context.waitForEvent('page')
  await page.mouse.click(x, y)
  const tab = await opened
  await expect.poll(() => tab.url()).toBe(`${site}/linked-42`)
  expect(await tab.evaluate(() => window.opener)).toBeNull()
})

/** Makes the page's WebGL name a GPU, so the IDE treats it as hardware (headless Chromium's is SwiftShader). */
function pretendGpu(): void {
  const named = (proto: { getParameter(p: number): unknown }) => {
    const original = proto.getParameter
    proto.getParameter = function (this: unknown, p: number) {
      // UNMASKED_RENDERER_WEBGL and RENDERER
      return p === 0x9246 || p === 0x1f01 ? 'ANGLE (Test GPU)' : original.call(this, p)
    }
  }
  named(WebGL2RenderingContext.prototype)
  named(WebGLRenderingContext.prototype)
}

test('software WebGL (SwiftShader here) is left for the DOM renderer, which is faster', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const screen = wb.terminal.locator('.terminal-screen')
  const gl = await page.evaluate(() => {
    const context = document.createElement('canvas').getContext('webgl2')
    const info = context?.getExtension('WEBGL_debug_renderer_info')
    return context && info ? String(context.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'none'
  })
  test.info().annotations.push({ type: 'webgl', description: gl })
  await wb.run('echo drawn-by-dom-$((2*21))', 'drawn-by-dom-42')
  await expect(screen).toHaveAttribute('data-renderer', /SwiftShader|none/i.test(gl) ? 'dom' : 'webgl')
})

test('WebGL draws visible terminals only, and a lost context falls back to the DOM renderer', async ({
  page,
}) => {
  await page.addInitScript(pretendGpu)
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const screen = wb.terminal.locator('.terminal-screen')
  const renderer = await screen.getAttribute('data-renderer')
  // Headless Chromium with --disable-gpu may or may not offer WebGL2 (SwiftShader): both are fine.
  test.info().annotations.push({ type: 'renderer', description: renderer ?? 'none' })
  if (renderer === 'webgl') {
    const glCanvas = screen.locator('.xterm-screen > canvas:not([class])')
    await expect(glCanvas).toHaveCount(1)
    // A terminal in a hidden tab holds no context.
    await page.getByRole('button', { name: 'New terminal' }).click()
    await expect(page.getByRole('tab', { name: 'Terminal 2' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.locator('.terminal-screen[data-renderer="webgl"]')).toHaveCount(1)
    await expect(page.locator('.xterm-screen > canvas:not([class])')).toHaveCount(1)
    await page.getByRole('tab', { name: 'Terminal 1' }).click()
    await expect(screen).toHaveAttribute('data-renderer', 'webgl')

    await glCanvas.evaluate((canvas: HTMLCanvasElement) =>
      canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext(),
    )
    // The addon waits 3 s for the context to come back before it gives up on it.
    await expect(screen).toHaveAttribute('data-renderer', 'dom', { timeout: 10_000 })
    await expect(glCanvas).toHaveCount(0)
  } else {
    expect(renderer).toBe('dom')
  }
  await wb.run('echo drawn-by-dom-$((2*21))', 'drawn-by-dom-42')
  await expect(screen.locator('.xterm-rows')).toContainText('drawn-by-dom-42')
})

test('emoji and CJK take two cells, as the shell counts them, so the cursor stays aligned', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  // Ask the terminal where its cursor is (DSR 6): after 😀 and 漢 (two cells each) and x, column 6.
  await wb.run(
    "clear; printf '😀漢x'; IFS='[;' read -rsd R -p $'\\e[6n' _ row col; echo \" col=$col\"",
    'col=',
  )
  await expect(wb.terminalRows).toContainText('😀漢x col=6')
  // The question stays in this shell's replayable output, and the next test's page would attach to
  // it; a page on a loaded machine could parse it after its replay window and answer it again.
  await wb.type('exit\n')
  await expect(wb.terminal.getByRole('status')).toContainText('The shell ended')
})

test('screen-reader mode, a kept option, mirrors the rows into an accessibility tree', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const rows = wb.terminal.locator('.xterm-accessibility-tree')
  await expect(rows).toHaveCount(0)
  await wb.command('Terminal: Toggle screen reader mode')
  await wb.run('echo read-aloud-$((5*5))', 'read-aloud-25')
  await expect(rows.getByRole('listitem').filter({ hasText: 'read-aloud-25' })).toHaveCount(1)
  await page.reload()
  await expect(wb.state).toHaveText('Running')
  await expect(rows).toContainText('read-aloud-25')
  await wb.command('Terminal: Toggle screen reader mode')
  await expect(rows).toHaveCount(0)
})

test('in full screen the page locks Ctrl+W, Ctrl+N and Ctrl+T away from the browser, for the shell', async ({
  page,
}) => {
  // Keyboard Lock has no way to ask whether it is on, so record what the page asks of it.
  await page.addInitScript(() => {
    const keyboard = (navigator as Navigator & { keyboard?: { lock(codes?: string[]): Promise<void> } })
      .keyboard
    if (!keyboard) return
    const calls: string[] = []
    Object.assign(window, { keyboardLockCalls: calls })
    const lock = keyboard.lock.bind(keyboard)
    keyboard.lock = (codes) => {
      calls.push(`lock ${codes?.join(',')}`)
      return lock(codes)
    }
  })
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const supported = await page.evaluate(() => 'keyboardLockCalls' in window)
  test.skip(!supported, 'this browser has no Keyboard Lock API')
  await wb.command('View: Toggle full screen')
  await expect.poll(() => page.evaluate(() => !!document.fullscreenElement)).toBe(true)
  await expect
    .poll(() => page.evaluate(() => (window as Window & { keyboardLockCalls?: string[] }).keyboardLockCalls))
    .toEqual(['lock KeyW,KeyN,KeyT'])
  await expect(page.getByRole('alert')).toHaveCount(0)
  await wb.command('View: Toggle full screen')
  await expect.poll(() => page.evaluate(() => !!document.fullscreenElement)).toBe(false)
})
