import { expect, type Locator, type Page, test } from '@playwright/test'
import { chromiumLaunchOptions } from './chromium'
import { EditorPage } from './pages/EditorPage'
import { EmbedParentPage } from './pages/EmbedParentPage'
import { LabPanelPage } from './pages/LabPanelPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

// The look of the key states, compared with the pictures in visual.spec.ts-snapshots/ (issue 22):
// a change in look shows in review as a changed picture. Run `npx playwright test
// e2e/visual.spec.ts --update-snapshots` after a change meant to be seen, and look at the new ones.
// What differs from run to run (sandbox ids, clocks, figures, the editor's blinking cursor) is
// masked; the rest may differ by 1% of its pixels (font antialiasing).
const launch = chromiumLaunchOptions()
test.use({
  // See embed.spec.ts: the consent dialog's parent page is answered by Playwright.
  launchOptions: { ...launch, args: [...(launch.args ?? []), '--disable-features=LocalNetworkAccessChecks'] },
  viewport: { width: 1280, height: 720 },
})
test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()

function changing(page: Page): Locator[] {
  return [
    page.locator('.toolbar-id'),
    page.getByTestId('time-left'),
    page.getByTestId('reconnect-countdown'),
    page.locator('.statusbar'),
    // Process ids depend on what ran before.
    page.locator('.process-list'),
    page.locator('.monaco-editor .cursors-layer'),
  ]
}

async function looksLike(page: Page, name: string): Promise<void> {
  await expect(page).toHaveScreenshot(`${name}.png`, {
    mask: changing(page),
    animations: 'disabled',
    caret: 'hide',
    maxDiffPixelRatio: 0.01,
  })
}

/** The workbench on the default sandbox, its terminal cleared and at a prompt. */
async function workbench(page: Page, theme: 'light' | 'dark'): Promise<WorkbenchPage> {
  await page.emulateMedia({ colorScheme: theme })
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await wb.run('clear && echo ready', 'ready')
  await wb.prompt()
  // The processes panel lists the terminal's shell once its poll has seen it: wait, so every
  // picture shows the list (masked) and never, on a quicker run, the empty list's message.
  await expect(page.getByRole('list', { name: 'Processes' }).getByRole('listitem')).not.toHaveCount(0)
  return wb
}

test.beforeAll(async () => {
  const files = await SandboxFiles.of(stack)
  await files.write('/home/user/project/README.md', '# A project\n\nWith some text.\n')
  await files.write('/home/user/project/main.py', 'print("hello")\n')
})

for (const theme of ['light', 'dark'] as const)
  test(`the workbench, running (${theme})`, async ({ page }) => {
    await workbench(page, theme)
    await looksLike(page, `running-${theme}`)
  })

test('paused, and the editor with a save conflict', async ({ page }) => {
  const wb = await workbench(page, 'light')
  const editor = new EditorPage(page)
  const files = await SandboxFiles.of(stack)
  await editor.open('/home/user/project/main.py')
  await editor.editable()
  await editor.typeAtEnd('# mine')
  await files.write('/home/user/project/main.py', 'print("theirs")\n')
  await editor.save()
  await expect(editor.alert).toContainText('changed on disk since you loaded it')
  await looksLike(page, 'save-conflict')
  await editor.bannerButton('Overwrite with mine').click()
  await expect(editor.alert).toHaveCount(0)

  await wb.toolbar.getByRole('button', { name: 'Pause' }).click()
  await expect(wb.state).toHaveText('Paused')
  await looksLike(page, 'paused')
  await wb.toolbar.getByRole('button', { name: 'Resume' }).click()
  await expect(wb.state).toHaveText('Running')
})

test('reconnecting while the stack is down', async ({ page }) => {
  const wb = await workbench(page, 'dark')
  await stack.stop()
  try {
    await expect(wb.state).toContainText('Reconnecting')
    await looksLike(page, 'reconnecting')
  } finally {
    await stack.start()
  }
})

test('the sign-in page a browser without the link sees', async ({ page, browser }) => {
  const res = await stack.api('POST', '/sandboxes', { templateID: 'python-basics', timeout: 600 })
  expect(res.status).toBe(201)
  const { sandboxID } = (await res.json()) as { sandboxID: string }
  await page.emulateMedia({ colorScheme: 'light' })
  await new WorkbenchPage(page).goto(stack.link(`/sandbox/${sandboxID}`))
  const lab = new LabPanelPage(page)
  await expect(lab.instructions).toContainText(/\w/)
  await stack.api('DELETE', `/sandboxes/${sandboxID}`)

  const stranger = await browser.newPage()
  await stranger.goto(stack.url)
  await expect(stranger.getByRole('heading', { name: 'Open the IDE with its link' })).toBeVisible()
  await looksLike(stranger, 'sign-in')
  await stranger.close()
})

test('an embed waiting for its page, and asking before it runs a command', async ({ page }) => {
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent('panels=terminal', { connect: false })
  await expect(parent.ide.getByRole('status')).toContainText('Waiting for the page to connect a sandbox')
  await looksLike(page, 'embed-waiting')

  await parent.gotoTestParent('panels=editor,terminal')
  await expect.poll(() => parent.terminalText()).toMatch(/\$$/)
  await parent.start('runCommand', 'echo asked-first')
  await expect(parent.consent).toBeVisible()
  await looksLike(page, 'consent')
  await parent.consent.getByRole('button', { name: "Don't run" }).click()
})
