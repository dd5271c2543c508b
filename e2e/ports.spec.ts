import { expect, test } from '@playwright/test'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()

test('a server started in the terminal shows in Ports; its preview sits beside the code, and waits while it is down', async ({
  page,
}, testInfo) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const id = (await stack.defaultSandbox()).id
  await wb.run(
    "mkdir -p ~/site && echo '<h1>Hello preview</h1>' > ~/site/index.html && echo site-ready",
    'site-ready',
  )
  await wb.type('cd ~/site && python3 -m http.server 8000\n')

  const ports = page.getByRole('region', { name: 'Ports' })
  const port = ports.getByRole('listitem', { name: 'Port 8000' })
  await expect(port).toBeVisible({ timeout: 15_000 })
  // Its own address, E2B's {port}-{sandboxId} form: no token in it.
  const href = await port.getByRole('link', { name: 'Open port 8000 in a new tab' }).getAttribute('href')
  expect(href).toBe(`http://8000-${id}.localhost:${stack.port}/`)

  // The server's own "http://0.0.0.0:8000/" in the terminal leads to the sandbox's port, not this machine's.
  const opened = page.context().waitForEvent('page')
  const at = await wb.pointAt('http://0.0.0.0:8000/', 8)
  await page.mouse.move(at.x, at.y)
  await page.mouse.click(at.x, at.y)
  const tab = await opened
  expect(tab.url()).toBe(`http://8000-${id}.localhost:${stack.port}/`)
  await expect(tab.getByRole('heading', { name: 'Hello preview' })).toBeVisible()
  await tab.close()

  await port.getByRole('button', { name: 'Preview' }).click()
  const preview = page.getByRole('region', { name: 'Preview of port 8000' })
  const frame = preview.frameLocator('iframe[title="Port 8000"]')
  await expect(frame.getByRole('heading', { name: 'Hello preview' })).toBeVisible()
  await expect(preview.locator('iframe')).toHaveAttribute('sandbox', /allow-scripts/)
  await screenshot(page, testInfo, 'preview')

  // The server stops: the pane says so; it starts again: the page comes back by itself.
  await wb.type('\u0003')
  await expect(preview.getByRole('status')).toContainText('Port 8000 is closed', { timeout: 15_000 })
  await expect(port).toBeHidden()
  await wb.type('echo "<h1>Back again</h1>" > index.html && python3 -m http.server 8000\n')
  await expect(frame.getByRole('heading', { name: 'Back again' })).toBeVisible({ timeout: 15_000 })

  // Another path, from the address bar.
  await preview.getByRole('textbox', { name: 'Path' }).fill('/missing.html')
  await preview.getByRole('textbox', { name: 'Path' }).press('Enter')
  await expect(frame.getByText('File not found')).toBeVisible()
  await preview.getByRole('button', { name: 'Close preview' }).click()
  await expect(preview).toBeHidden()
  await wb.type('\u0003')
})
