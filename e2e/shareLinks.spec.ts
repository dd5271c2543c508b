// Share links (written for the lead to run): the owner makes a link from the toolbar; a second
// browser opens it. View only: the guest sees the owner's typing live and can type nowhere (the
// editor and the terminal), and says so; edit: the guest types and the owner sees it; revoked:
// the guest is cut off at once.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { ShareDialogPage } from './pages/ShareDialogPage'
import { readTerminalText, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()
let files: SandboxFiles
const home = '/home/user'

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

/** The owner's browser, with `path` open. */
async function owner(browser: Browser, path: string) {
  const page = await (await browser.newContext()).newPage()
  await new WorkbenchPage(page).goto(stack.link())
  const editor = new EditorPage(page)
  await editor.open(path)
  await editor.editable()
  return { page, editor, share: new ShareDialogPage(page), workbench: new WorkbenchPage(page) }
}

/** A guest's browser (its own cookies) opening a share link, with `path` open. */
async function guest(
  browser: Browser,
  link: string,
  path: string,
): Promise<{ page: Page; editor: EditorPage }> {
  const page = await (await browser.newContext()).newPage()
  await page.goto(link)
  const workbench = new WorkbenchPage(page)
  await expect(workbench.state).toHaveText('Running', { timeout: 20_000 })
  // The token left the address bar.
  expect(new URL(page.url()).hash).toBe('')
  const editor = new EditorPage(page)
  await editor.open(path)
  await editor.editable()
  return { page, editor }
}

test('a view-only guest sees the owner type, live, and can type nowhere', async ({ browser }) => {
  const path = `${home}/shared.py`
  await files.write(path, 'x = 1\n')
  const ann = await owner(browser, path)
  // Typed before the guest comes, and not saved: the guest sees it too.
  await ann.editor.typeAtEnd('y = 2')
  const link = await ann.share.makeLink('View only', 'Grace')
  await ann.share.close()
  const grace = await guest(browser, link, path)
  await expect(grace.page.getByRole('toolbar', { name: 'Sandbox' })).toContainText('View only')
  // No way to the picker or to sharing.
  await expect(grace.page.getByRole('button', { name: 'Sandboxes', exact: true })).toHaveCount(0)
  // Exact: Ann's avatar is named "Owner, in shared.py".
  await expect(grace.page.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0)
  await expect.poll(() => grace.editor.text(), { timeout: 15_000 }).toBe('x = 1\ny = 2')

  await ann.editor.typeAtEnd('0')
  await expect.poll(() => grace.editor.text()).toBe('x = 1\ny = 20')
  await ann.page.keyboard.press('Backspace')
  await expect.poll(() => grace.editor.text()).toBe('x = 1\ny = 2')

  // The editor takes no keys.
  await grace.editor.typeAtEnd('z = 3')
  await expect(grace.editor.area).toContainText('Read-only')
  await expect.poll(() => grace.editor.text()).toBe('x = 1\ny = 2')
  await expect.poll(() => ann.editor.text()).toBe('x = 1\ny = 2')

  // The owner's terminal shows in the guest's page, and takes none of the guest's keys.
  await ann.workbench.run('echo from-the-owner', 'from-the-owner')
  const graceTerminal = new WorkbenchPage(grace.page)
  await expect(graceTerminal.terminalRows).toContainText('from-the-owner', { timeout: 20_000 })
  await graceTerminal.type('echo from-the-guest\n')
  await grace.page.waitForTimeout(1000)
  expect(await readTerminalText(ann.workbench.terminalRows)).not.toContain('from-the-guest')
  expect(await files.read(path)).toBe('x = 1\n')
  await grace.page.context().close()
  await ann.page.context().close()
})

test('an edit guest types and the owner sees it; revoking the link cuts the guest off', async ({
  browser,
}) => {
  const path = `${home}/pair.py`
  await files.write(path, 'a = 1\n')
  const ann = await owner(browser, path)
  const link = await ann.share.makeLink('Edit', 'Linus')
  await ann.share.close()
  const linus = await guest(browser, link, path)
  await expect(linus.page.getByRole('toolbar', { name: 'Sandbox' })).not.toContainText('View only')

  await linus.editor.typeAtEnd('b = 2')
  await expect.poll(() => ann.editor.text()).toBe('a = 1\nb = 2')
  // The owner's tab names the guest by the share's name.
  await expect(ann.editor.tab('pair.py')).toHaveAccessibleDescription('Also open by Linus')

  // The link opens no second browser.
  const second = await (await browser.newContext()).newPage()
  await second.goto(link)
  await expect(second.getByText('already used')).toBeVisible({ timeout: 20_000 })
  await second.context().close()

  await ann.page
    .getByRole('toolbar', { name: 'Sandbox' })
    .getByRole('button', { name: 'Share', exact: true })
    .click()
  await ann.share.revoke('Linus')
  await ann.share.close()
  // Cut off at once: the guest's page says the link no longer opens the sandbox (and stops
  // trying), and nothing more it types arrives.
  await expect(new WorkbenchPage(linus.page).state).toHaveText('Signed out', { timeout: 15_000 })
  await expect(linus.page.getByRole('alert').filter({ hasText: 'share link' })).toContainText(
    'This share link no longer opens the sandbox: it was revoked, or it expired.',
  )
  await linus.editor.typeAtEnd('c = 3').catch(() => {})
  await ann.page.waitForTimeout(1000)
  expect(await ann.editor.text()).toBe('a = 1\nb = 2')
  await linus.page.context().close()
  await ann.page.context().close()
})
