import { expect, test } from '@playwright/test'

test('the app shell shows its title and an empty workbench', async ({ page }, testInfo) => {
  await page.goto('/')
  await expect(page).toHaveTitle('Sandbox IDE')
  await expect(page.getByRole('heading', { level: 1, name: 'Sandbox IDE' })).toBeVisible()
  const workbench = page.getByRole('main', { name: 'Workbench' })
  await expect(workbench.getByRole('heading', { name: 'No sandbox connected' })).toBeVisible()
  await expect(workbench.getByText('npm start')).toBeVisible()

  const screenshot = await page.screenshot({ fullPage: true })
  await testInfo.attach('app-shell', { body: screenshot, contentType: 'image/png' })
  await page.screenshot({ path: testInfo.outputPath('app-shell.png'), fullPage: true })
})
