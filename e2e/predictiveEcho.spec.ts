import { startDelayingProxy } from '../server/testing/delayingProxy'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

// Predictive echo against the real stack and a real bash, behind a proxy that adds 40 ms each
// way: a fixed script of 1,000 keys (letters, backspace, arrows, Tab, Enter, a silent prompt, a
// full-screen program, a command that rewrites its line) typed at a person's pace, after which the
// page shows exactly what the shell wrote, as a second page without predictions shows it.

const stack = stackForThisFile()

/** A shell that runs nothing by accident: no PATH, no startup files; what the script needs as functions. */
const safeShell = [
  "exec env -i HOME=/home/user TERM=xterm-256color PS1='$ ' PATH=/nonexistent /bin/bash --norc --noprofile",
  // A full-screen program (vim's part): the alternate screen until three keys are read.
  "fullscreen() { printf '\\e[?1049h\\e[H~\\n~\\n~'; read -rsn3; printf '\\e[?1049l'; }",
  // A command whose output rewrites its own line, as a progress display does.
  "progress() { printf '50%%\\r\\e[K100%%\\n'; }",
  "printf '\\e[H\\e[2J'",
]

/** The keys of the script, as Playwright names them; the same every run. */
function script(): string[] {
  let seed = 20261125
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const specials = ['Backspace', 'Backspace', 'ArrowLeft', 'ArrowRight', 'Tab', 'Enter']
  const programs = [
    // Each on a line of its own (Ctrl-E, Ctrl-U empty it). What is typed unseen is in capitals, which
    // the rest of the script never types.
    ['Control+e', 'Control+u', ...'read -s', 'Enter', ...'QZJ', 'Enter'],
    ['Control+e', 'Control+u', ...'fullscreen', 'Enter', 'Q', 'Z', 'J'],
    ['Control+e', 'Control+u', ...'progress', 'Enter'],
  ]
  const keys: string[] = []
  while (keys.length < 1000) {
    const r = next()
    if (r < 0.03) keys.push(...(programs[Math.floor(next() * programs.length)] as string[]))
    else if (r < 0.15) keys.push(specials[Math.floor(next() * specials.length)] as string)
    else keys.push(String.fromCharCode(97 + Math.floor(next() * 26)))
  }
  return keys
}

test('a script of 1,000 keys over a slow link ends on exactly the shell’s screen, predicted where it may be', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000)
  const proxy = await startDelayingProxy(stack.port, 40)
  try {
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link('/', `http://127.0.0.1:${proxy.port}`))
    for (const line of safeShell) await wb.run(line, /\$ ?$/)
    await wb.command('Terminal: Predictive echo always')
    await wb.terminal.locator('textarea').focus()
    const dimmed = wb.terminal.locator('.xterm-rows .xterm-dim')
    // The page watches every change of the screen as it happens, not a sample after each key:
    // what was ever drawn for a prompt that does not echo, or in a full-screen program (nothing,
    // ever), and how often a key was drawn, dimmed, before its echo.
    await wb.terminal.evaluate((terminal) => {
      const seen = { secret: '', predicted: 0 }
      const rows = terminal.querySelector('[data-testid="terminal-text"]')
      const drawn = terminal.querySelector('.xterm-rows')
      new MutationObserver(() => {
        const text = rows?.textContent ?? ''
        if (!seen.secret && /[QZJ]/.test(text)) seen.secret = text
        if (drawn?.querySelector('.xterm-dim')) seen.predicted++
      }).observe(terminal, { subtree: true, childList: true, characterData: true, attributes: true })
      Object.assign(window, { seen })
    })
    for (const [i, key] of script().entries()) {
      await page.keyboard.press(key)
      await page.waitForTimeout(5 + ((i * 37) % 60))
    }
    await page.keyboard.press('Enter')
    const seen = () =>
      page.evaluate(() => (window as unknown as { seen: { secret: string; predicted: number } }).seen)
    await expect(dimmed).toHaveCount(0, { timeout: 5000 })
    expect((await seen()).secret, 'what a silent prompt or a full-screen program was shown').toBe('')
    expect(
      (await seen()).predicted,
      'changes of the screen that showed a key before its echo',
    ).toBeGreaterThan(50)

    // The shell's own screen: a second page, on the stack directly and predicting nothing, opens
    // the same shell and draws what it wrote (replayed), at the same size.
    const other = await browser.newContext()
    try {
      const truth = new WorkbenchPage(await other.newPage())
      await truth.goto(stack.link())
      await expect.poll(() => truth.terminalText(), { timeout: 20_000 }).toBe(await wb.terminalText())
      const cursor = (p: WorkbenchPage) => p.terminalRows.getAttribute('data-cursor')
      expect(await cursor(truth)).toBe(await cursor(wb))
    } finally {
      await other.close()
    }
  } finally {
    await proxy.close()
  }
})
