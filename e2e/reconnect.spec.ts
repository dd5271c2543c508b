import { expect, test } from '@playwright/test'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()

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
