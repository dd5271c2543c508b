import { EditorPage } from './pages/EditorPage'
import { ProcessPanelPage } from './pages/ProcessPanelPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { signalRuntimeProcess, startRuntimeProcess } from './runtimeProcess'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()

const defaultSandboxId = async () => (await stack.defaultSandbox()).id

test('lists the IDE’s own shell with its tag, and processes other clients started, as plain text', async ({
  page,
}, testInfo) => {
  const wb = new WorkbenchPage(page)
  const processes = new ProcessPanelPage(page)
  await wb.goto(stack.link())
  await wb.run('echo shell-pid=$$', /shell-pid=\d+/)
  const shellPid = (await wb.terminalText()).match(/shell-pid=(\d+)/)?.[1] ?? 'none'

  const shell = await processes.expectListed(shellPid)
  await expect(shell).toContainText('/bin/bash -l')
  await expect(shell).toContainText('IDE terminal')
  await expect(shell).toContainText(/ide-terminal:[0-9a-f-]{36}/)

  // A tag with markup in it is shown as the text it is, never rendered.
  const sleeper = await startRuntimeProcess(stack, await defaultSandboxId(), {
    process: { cmd: 'sleep', args: ['300'] },
    tag: '<b>e2e-sleeper</b>',
  })
  await processes.refresh.focus()
  await page.keyboard.press('Enter')
  const row = await processes.expectListed(sleeper.pid)
  await expect(row).toContainText('sleep 300')
  await expect(row).toContainText('<b>e2e-sleeper</b>')
  await expect(row).not.toContainText('IDE terminal')
  await expect(processes.list.locator('b')).toHaveCount(0)

  // A shell of the IDE that no page shows any more (its browser closed) is marked as such.
  const left = await startRuntimeProcess(
    stack,
    await defaultSandboxId(),
    {
      process: { cmd: '/bin/bash', args: ['-l'] },
      pty: { size: { cols: 80, rows: 24 } },
      tag: 'ide-terminal:left',
    },
    { detach: true },
  )
  // The runtime learns that its stream went away a moment later (through the router): ask again until it has.
  await expect(async () => {
    await processes.refresh.focus()
    await page.keyboard.press('Enter')
    await expect(await processes.expectListed(left.pid)).toContainText('IDE terminal, detached', {
      timeout: 1000,
    })
  }).toPass({ timeout: 15_000 })
  await expect(shell).not.toContainText('detached')
  await screenshot(page, testInfo, 'processes')
  await signalRuntimeProcess(stack, await defaultSandboxId(), left.pid, 'SIGNAL_SIGKILL')
})

test('“Open in terminal” attaches a new tab to a PTY process; a process without one says why not', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  const processes = new ProcessPanelPage(page)
  await wb.goto(stack.link())
  const id = await defaultSandboxId()
  const bash = await startRuntimeProcess(stack, id, {
    process: { cmd: '/bin/bash', envs: { TERM: 'xterm-256color' } },
    pty: { size: { cols: 80, rows: 24 } },
    tag: 'e2e-pty',
  })
  await expect(await processes.expectListed(bash.pid)).toContainText('e2e-pty')

  // By keyboard, as every action of the panel can be.
  await processes.openButton(bash.pid).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('tab', { name: `bash ${bash.pid}` })).toHaveAttribute('aria-selected', 'true')
  await wb.run('echo attached-$$', `attached-${bash.pid}`)

  const tabs = page.getByRole('tablist', { name: 'Terminals' }).getByRole('tab')
  const tabCount = await tabs.count()
  const sleeper = await startRuntimeProcess(stack, id, { process: { cmd: 'sleep', args: ['300'] } })
  await processes.expectListed(sleeper.pid)
  await processes.openButton(sleeper.pid).click()
  await expect(
    page.getByRole('alert').filter({ hasText: `Opening ${sleeper.pid} in a terminal failed` }),
  ).toContainText('tty not assigned to process')
  await expect(tabs).toHaveCount(tabCount)
})

test('Kill ends a process with SIGTERM, or with SIGKILL after a grace period when it ignores SIGTERM', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  const processes = new ProcessPanelPage(page)
  await wb.goto(stack.link())
  const id = await defaultSandboxId()

  const polite = await startRuntimeProcess(stack, id, { process: { cmd: 'sleep', args: ['300'] } })
  await processes.expectListed(polite.pid)
  await processes.killButton(polite.pid).click()
  await expect(processes.row(polite.pid)).toHaveCount(0, { timeout: 10_000 })
  expect(await polite.ended).toBe('signal: terminated')

  // An ignored signal stays ignored across exec, so the pid the runtime knows is the stubborn one.
  const stubborn = await startRuntimeProcess(stack, id, {
    process: { cmd: 'sh', args: ['-c', 'trap "" TERM; exec sleep 300'] },
    tag: 'e2e-stubborn',
  })
  const row = await processes.expectListed(stubborn.pid)
  await processes.killButton(stubborn.pid).click()
  await expect(row.getByRole('status')).toHaveText(`Stopping ${stubborn.pid}…`)
  await expect(processes.row(stubborn.pid)).toHaveCount(0, { timeout: 10_000 })
  // SIGKILL, not SIGTERM, ended it (the "Killing…" step between is too short to catch reliably).
  expect(await stubborn.ended).toBe('signal: killed')
  await expect(page.getByRole('alert')).toHaveCount(0)
})

test('a language server is listed by its name, its command line in the tooltip', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  const processes = new ProcessPanelPage(page)
  await wb.goto(stack.link())
  await (await SandboxFiles.of(stack)).write('/home/user/listed.py', 'print("listed")\n')
  const editor = new EditorPage(page)
  await editor.open('listed.py')
  await editor.editable()
  // Earlier pages' servers may still be listed: any one of them says the same.
  const name = processes.list.getByText('Language server: Pyright', { exact: true }).first()
  await expect(name).toBeVisible({ timeout: 60_000 })
  await expect(name).toHaveAttribute('title', /pyright-langserver --stdio/)
  await expect(
    processes.list.getByRole('listitem').filter({ hasText: 'Language server: Pyright' }).first(),
  ).toContainText('ide-lsp:python:')
})
