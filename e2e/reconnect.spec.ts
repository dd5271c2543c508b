import { expect, test } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
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
