import type { Locator, Page } from '@playwright/test'
import { SearchPage } from './pages/SearchPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()

const defaultSandboxId = async () => (await stack.defaultSandbox()).id

/** Presses Tab (going round the page) until `target` has focus, as a keyboard user would reach it. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 60; i++) {
    // Tab inside the terminal goes to the shell; Escape then Tab leaves it, as documented.
    const inTerminal = await page.evaluate(() =>
      document.activeElement?.classList.contains('xterm-helper-textarea'),
    )
    if (inTerminal) await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) return
  }
  throw new Error(`could not reach ${target} with Tab`)
}

/** The toolbar's time left, in minutes: "1 h 05 min", "29 min", or "1:59" in the last two. */
function minutesLeft(text: string | null): number {
  const label = (text ?? '').replace('Time left ', '')
  const clock = label.match(/^(\d+):(\d\d)$/)
  if (clock) return Number(clock[1]) + Number(clock[2]) / 60
  const hours = Number(label.match(/(\d+) h/)?.[1] ?? 0)
  return hours * 60 + Number(label.match(/(\d+) min$/)?.[1] ?? Number.NaN)
}

test('opens the default sandbox; pause disables input and the runtime answers 502; resume goes on in the same shell', async ({
  page,
}, testInfo) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await wb.run('echo shell-pid=$$', /shell-pid=\d+/)
  const pid = ((await wb.terminalRows.textContent()) ?? '').match(/shell-pid=(\d+)/)?.[1]
  // The status bar shows the sandbox's use against its limits (the stack's default: 2048 MB).
  const statusBar = page.getByRole('region', { name: 'Status bar' })
  await expect(statusBar.getByRole('meter', { name: /^CPU/ })).toBeVisible()
  await expect(statusBar.getByRole('meter', { name: /^Memory/ })).toHaveAttribute('max', '2048')
  await expect(statusBar).toContainText(/\d+ \/ 2048 MB/)
  await screenshot(page, testInfo, 'workbench')

  await wb.toolbar.getByRole('button', { name: 'Pause' }).click()
  await expect(wb.state).toHaveText('Paused')
  await expect(wb.terminal.getByRole('status')).toContainText('input is disabled')
  await wb.type('echo typed-while-paused\n')
  const id = await defaultSandboxId()
  const answer = await page.evaluate(async (url) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    return { status: res.status, body: await res.json() }
  }, `http://49983-${id}.localhost:${stack.port}/process.Process/List`)
  expect(answer).toEqual({
    status: 502,
    body: { sandboxId: id, message: expect.stringContaining('paused'), code: 502 },
  })
  await screenshot(page, testInfo, 'paused')

  await wb.toolbar.getByRole('button', { name: 'Resume' }).click()
  await expect(wb.state).toHaveText('Running')
  await wb.run('echo again-pid=$$', `again-pid=${pid}`)
  await expect(wb.terminalRows).not.toContainText('typed-while-paused')
})

test('every toolbar action works from the command palette', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await wb.command('Sandbox: Pause')
  await expect(wb.state).toHaveText('Paused')
  await wb.command('Sandbox: Resume')
  await expect(wb.state).toHaveText('Running')
  const before = minutesLeft(await page.getByTestId('time-left').textContent())
  await wb.command('Sandbox: Extend timeout by 30 minutes')
  await expect
    .poll(async () => minutesLeft(await page.getByTestId('time-left').textContent()))
    .toBeGreaterThan(before + 25)
  await wb.command('Theme: Dark')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await wb.command('Theme: Light')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await wb.command('View: Toggle terminal')
  await expect(wb.terminal).toBeHidden()
  await wb.command('View: Toggle terminal')
  await expect(wb.terminal).toBeVisible()
  await wb.command('Sandbox: Switch sandbox')
  await expect(page.getByRole('heading', { name: 'Sandboxes on this machine' })).toBeVisible()
})

test('every toolbar action works from the keyboard alone', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await tabTo(page, wb.toolbar.getByRole('button', { name: 'Pause' }))
  await page.keyboard.press('Enter')
  await expect(wb.state).toHaveText('Paused')
  await tabTo(page, wb.toolbar.getByRole('button', { name: 'Resume' }))
  await page.keyboard.press('Enter')
  await expect(wb.state).toHaveText('Running')
  const before = minutesLeft(await page.getByTestId('time-left').textContent())
  await tabTo(page, wb.toolbar.getByRole('button', { name: 'Extend' }))
  await page.keyboard.press('Enter')
  await expect
    .poll(async () => minutesLeft(await page.getByTestId('time-left').textContent()))
    .toBeGreaterThan(before + 25)
  await tabTo(page, wb.toolbar.getByRole('combobox', { name: 'Theme' }))
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await tabTo(page, wb.toolbar.getByRole('button', { name: 'Commands' }))
  await page.keyboard.press('Enter')
  await expect(wb.palette).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(wb.palette).toBeHidden()
  await page.keyboard.press('Control+`')
  await expect(wb.terminal).toBeHidden()
  await page.keyboard.press('Control+`')
  await expect(wb.terminal).toBeVisible()
  // Tab belongs to the shell inside the terminal; Escape then Tab leaves it.
  await wb.terminal.locator('textarea').focus()
  await page.keyboard.press('Escape')
  await page.keyboard.press('Shift+Tab')
  await expect(wb.terminal.locator('textarea')).not.toBeFocused()
  await tabTo(page, wb.toolbar.getByRole('button', { name: 'Sandboxes' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Sandboxes on this machine' })).toBeVisible()
})

test('follows the OS theme and remembers the layout of each sandbox across a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await wb.command('Theme: Follow the system')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  const explorer = page.getByRole('navigation', { name: 'Explorer' })
  await expect(explorer).toBeVisible()
  await page.keyboard.press('Control+Shift+E')
  await expect(explorer).toBeHidden()
  await page.reload()
  await expect(wb.state).toHaveText('Running')
  await expect(explorer).toBeHidden()
  await page.keyboard.press('Control+Shift+E')
  await expect(explorer).toBeVisible()
})

test('a view’s key pressed before the views’ code has arrived is done when it arrives', async ({ page }) => {
  // The activity bar's code comes after the page renders; hold it back to press the key first.
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/viewActions-[^/]*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const explorer = page.getByRole('navigation', { name: 'Explorer' })
  await expect(explorer).toBeVisible()
  const search = new SearchPage(page)
  await page.keyboard.press('Control+Shift+F')
  await expect(explorer).toBeVisible()
  release()
  await expect(page.getByRole('tab', { name: 'Search' })).toHaveAttribute('aria-selected', 'true')
  await expect(search.query).toBeFocused()
})

test('long-lived streams never starve other calls over HTTP/1.1: each gets a host shard of its own', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const id = await defaultSandboxId()
  const token = ((await (await stack.api('GET', `/sandboxes/${id}`)).json()) as { envdAccessToken: string })
    .envdAccessToken
  const result = await page.evaluate(
    async ({ port, id, token }) => {
      const envelope = (json: string) => {
        const data = new TextEncoder().encode(json)
        const out = new Uint8Array(5 + data.length)
        new DataView(out.buffer).setUint32(1, data.length)
        out.set(data, 5)
        return out
      }
      const controllers: AbortController[] = []
      // Nine streams held open at once, more than the six connections one host name gets.
      const streams = Array.from({ length: 9 }, async (_, i) => {
        const controller = new AbortController()
        controllers.push(controller)
        const res = await fetch(`http://s${i + 1}.49983-${id}.localhost:${port}/process.Process/Start`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': token },
          body: envelope(JSON.stringify({ process: { cmd: 'sleep', args: ['60'] } })),
          signal: controller.signal,
        })
        await (res.body as ReadableStream).getReader().read()
      })
      await Promise.all(streams)
      const list = await fetch(`http://49983-${id}.localhost:${port}/filesystem.Filesystem/ListDir`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Access-Token': token },
        body: '{"path":"/"}',
      })
      const ok = list.ok && ((await list.json()) as { entries: unknown[] }).entries.length > 0
      for (const c of controllers) c.abort()
      return ok
    },
    { port: stack.port, id, token },
  )
  expect(result).toBe(true)
})
