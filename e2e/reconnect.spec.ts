import { EditorPage } from './pages/EditorPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()
// Each test stops its stack and starts it again, then waits out the page's backoff: beside
// another spec on two cores, that alone can take a minute.
test.describe.configure({ timeout: 180_000 })

test('shows reconnecting with a countdown while the stack is down, and comes back by itself', async ({
  page,
}, testInfo) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  await stack.stop()
  await expect(wb.state).toContainText('Reconnecting')
  await expect(page.getByTestId('reconnect-countdown')).toHaveText(/next try in \d+ s/)
  await expect(wb.status).toContainText('Reconnecting')
  await screenshot(page, testInfo, 'reconnecting')

  await stack.start()
  await expect(wb.state).toHaveText('Running', { timeout: 45_000 })
  // A restarted stack starts fresh processes: the terminal says its shell is gone and offers a new one.
  await expect(wb.terminal.getByRole('status')).toContainText('The shell ended')
  await wb.terminal.getByRole('button', { name: 'Restart' }).click()
  await expect(wb.terminalRows).toContainText('$')
  await wb.run('echo back-again', 'back-again')
})

test('a save while the stack is down keeps the edit unsaved and says so; once back, the save lands whole', async ({
  page,
}) => {
  const files = await SandboxFiles.of(stack)
  await files.write('/home/user/draft.txt', 'first\n')
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const editor = new EditorPage(page)
  await editor.open('/home/user/draft.txt')
  await editor.editable()
  await editor.typeAtEnd('second')
  await expect(editor.tab('draft.txt')).toHaveAccessibleName('draft.txt (unsaved)')

  await stack.stop()
  await expect(wb.state).toContainText('Reconnecting')
  await editor.save()
  await expect(page.getByRole('alert').filter({ hasText: 'draft.txt' }).first()).toBeVisible()
  await expect(editor.tab('draft.txt')).toHaveAccessibleName('draft.txt (unsaved)')

  await stack.start()
  await expect(wb.state).toHaveText('Running', { timeout: 45_000 })
  expect(await files.read('/home/user/draft.txt')).toBe('first\n')
  await editor.tab('draft.txt').click()
  await editor.save()
  await expect(editor.tab('draft.txt')).toHaveAccessibleName('draft.txt')
  expect(await files.read('/home/user/draft.txt')).toBe('first\nsecond')
})

test('a part first opened while the stack is down says it could not be loaded, and loads on Try again once back', async ({
  page,
}) => {
  // Routing turns the browser's HTTP cache off: the part's code must come from the stack (the
  // worker's earlier tests may have cached it), and the stack is about to be down.
  await page.route('**/*', (route) => route.continue())
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  // The explorer is a part of its own too: loaded (and its folder listed) before the stack goes.
  const files = page.getByRole('tree', { name: 'Files' })
  await expect(files.getByRole('treeitem').first()).toBeVisible()
  await stack.stop()
  await expect(wb.state).toContainText('Reconnecting')
  // The command palette's code is fetched when it first opens: now, from a stack that is away.
  await page.keyboard.press('Control+Shift+P')
  const failed = page.getByRole('alert').filter({ hasText: 'Command palette could not be loaded' })
  await expect(failed).toBeVisible({ timeout: 30_000 })
  // The rest of the page stays: no blank tab.
  await expect(wb.terminal).toBeVisible()
  await expect(files).toBeVisible()

  await stack.start()
  await expect(wb.state).toHaveText('Running', { timeout: 45_000 })
  await failed.getByRole('button', { name: 'Try again' }).click()
  await expect(wb.palette).toBeVisible()
  await expect(failed).toBeHidden()
})
