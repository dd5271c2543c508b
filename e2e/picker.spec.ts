import { ExplorerPage } from './pages/ExplorerPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()

test('lists local sandboxes and creates, opens, pauses, resumes and kills them', async ({ page }) => {
  await page.goto(stack.link('/sandbox'))
  const table = page.getByRole('table', { name: 'Local sandboxes' })
  await expect(table.getByRole('row')).toHaveCount(2)
  await page.getByRole('button', { name: 'New sandbox' }).click()
  // Made while the other browser tests load the machine: creating may take more than a moment then.
  await expect(page).toHaveURL(/\/sandbox\/[a-z0-9]{20}$/, { timeout: 20_000 })
  const created = page.url().split('/').pop() as string
  const wb = new WorkbenchPage(page)
  await expect(wb.state).toHaveText('Running')
  await wb.run('echo in-the-new-one', 'in-the-new-one')

  await wb.toolbar.getByRole('button', { name: 'Sandboxes' }).click()
  await expect(table.getByRole('row')).toHaveCount(3)
  const row = table.getByRole('row').filter({ hasText: created })
  await row.getByRole('button', { name: `Pause ${created}` }).click()
  await expect(row).toContainText('paused')
  await row.getByRole('button', { name: `Resume ${created}` }).click()
  await expect(row).toContainText('running')
  await row.getByRole('button', { name: `Kill ${created}` }).click()
  const dialog = page.getByRole('dialog', { name: `Kill sandbox ${created}?` })
  await dialog.getByRole('button', { name: 'Kill sandbox' }).click()
  await expect(table.getByRole('row')).toHaveCount(2)
  expect((await stack.api('GET', `/sandboxes/${created}`)).status).toBe(404)
})

test('a new sandbox starts from the template chosen, its files in the explorer', async ({ page }) => {
  await page.goto(stack.link('/sandbox'))
  const template = page.getByRole('combobox', { name: 'Template' })
  await expect(template).toHaveValue('base')
  await template.selectOption('python-basics')
  await page.getByRole('button', { name: 'New sandbox' }).click()
  await expect(page).toHaveURL(/\/sandbox\/[a-z0-9]{20}$/)
  const created = page.url().split('/').pop() as string
  await expect(new ExplorerPage(page).item('main.py')).toBeVisible()

  await new WorkbenchPage(page).toolbar.getByRole('button', { name: 'Sandboxes' }).click()
  const row = page
    .getByRole('table', { name: 'Local sandboxes' })
    .getByRole('row')
    .filter({ hasText: created })
  await expect(row.getByRole('cell').nth(1)).toHaveText('python-basics')
  expect((await stack.api('DELETE', `/sandboxes/${created}`)).status).toBe(204)
})
