import { WorkbenchPage } from './pages/WorkbenchPage'
import { expect, test } from './sharedContext'
import { freePort, LocalStack } from './stack'

// "The cloud": a second local platform with its own key stands in for E2B, without internet.
let stack: LocalStack
let cloud: LocalStack
test.beforeAll(async () => {
  stack = new LocalStack(await freePort())
  cloud = new LocalStack(await freePort(), ['--no-default-sandbox'])
  await Promise.all([stack.start(), cloud.start()])
})
test.afterAll(async () => {
  await Promise.all([stack.dispose(), cloud.dispose()])
})

test('connects to an E2B sandbox by id and key through the stack, and pauses and resumes it', async ({
  page,
}) => {
  const { sandboxID: id } = (await (await cloud.api('POST', '/v2/sandboxes', { timeout: 600 })).json()) as {
    sandboxID: string
  }
  await page.goto(stack.link('/sandbox'))
  const form = page.getByRole('form', { name: 'Connect to E2B' })
  await form.getByLabel('Sandbox id').fill(id)
  await form.getByLabel('API key').fill(cloud.apiKey)
  await form.getByText('Advanced').click()
  await form.getByLabel('API URL').fill(cloud.url)
  await form.getByRole('button', { name: 'Connect' }).click()
  await expect(page).toHaveURL(new RegExp(`/e2b/[^/]+/${id}$`))
  // The key stays on the server: never in the page's URL or storage.
  expect(page.url()).not.toContain(cloud.apiKey)
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain(
    cloud.apiKey,
  )

  const wb = new WorkbenchPage(page)
  await expect(wb.state).toHaveText('Running')
  await wb.run('echo shell-pid=$$ on $E2B_SANDBOX_ID', new RegExp(`shell-pid=\\d+ on ${id}`))
  const pid = ((await wb.terminalRows.textContent()) ?? '').match(/shell-pid=(\d+)/)?.[1]
  await wb.toolbar.getByRole('button', { name: 'Pause' }).click()
  await expect(wb.state).toHaveText('Paused')
  expect(((await (await cloud.api('GET', `/sandboxes/${id}`)).json()) as { state: string }).state).toBe(
    'paused',
  )
  await wb.toolbar.getByRole('button', { name: 'Resume' }).click()
  await expect(wb.state).toHaveText('Running')
  await wb.run('echo again-pid=$$', `again-pid=${pid}`)
})
