// The pictures of README.md and docs/, taken from the real stack so they never go stale:
//   npm run docs:screenshots      (writes docs/images/*.png; look at them, then commit)
// Not part of `npm test`: the pictures are reviewed with the change that alters them, as the
// visual tests' are. Each shot sets up what a user would see, the way a user gets there.
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { EmbedParentPage } from '../pages/EmbedParentPage'
import { LabPanelPage } from '../pages/LabPanelPage'
import { WorkbenchPage } from '../pages/WorkbenchPage'
import { stackForThisFile } from '../stack'

const images = join(import.meta.dirname, '..', '..', 'docs', 'images')
const stack = stackForThisFile()
test.describe.configure({ mode: 'serial' })
test.use({ viewport: { width: 1280, height: 760 }, colorScheme: 'light' })

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(images, `${name}.png`), animations: 'disabled', caret: 'hide' })

async function labSandbox(metadata: Record<string, string> = {}): Promise<string> {
  const made = await stack.api('POST', '/v2/sandboxes', {
    templateID: 'python-basics',
    timeout: 1800,
    autoPause: true,
    metadata,
  })
  expect(made.status).toBe(201)
  return ((await made.json()) as { sandboxID: string }).sandboxID
}

test('the workbench: explorer, editor, terminal and a lab', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link(`/sandbox/${await labSandbox()}`))
  const lab = new LabPanelPage(page)
  await expect(lab.instructions).toContainText(/\w/)
  await expect(page.getByRole('tab', { name: /main\.py/ })).toBeVisible()
  await wb.run('clear && python3 -B -m unittest discover -s tests 2>&1 | tail -3', 'FAILED')
  await lab.check()
  await expect(page.getByRole('list', { name: 'Processes' }).getByRole('listitem')).not.toHaveCount(0)
  await page.getByRole('tab', { name: /main\.py/ }).click()
  await shoot(page, 'workbench')
})

test("the teacher's dashboard of a class", async ({ browser }) => {
  for (const student of ['ada', 'ben', 'chen']) await labSandbox({ class: 'monday', student })
  const teacher = await (await browser.newContext({ viewport: { width: 1280, height: 520 } })).newPage()
  await teacher.goto(stack.link('/class/monday'))
  await expect(teacher.getByRole('heading', { name: 'Class monday' })).toBeVisible({ timeout: 20_000 })
  await teacher.getByRole('button', { name: 'Run the check for everyone' }).click()
  await expect(teacher.getByRole('main')).toContainText(/0 of 3 passing/, { timeout: 60_000 })
  await shoot(teacher, 'dashboard')
})

test('the IDE embedded in a documentation page', async ({ page }) => {
  const parent = new EmbedParentPage(page, stack)
  await page.setViewportSize({ width: 1280, height: 900 })
  await parent.gotoDemo()
  await expect(parent.ide.getByRole('tab', { name: /hello\.py/ })).toBeVisible()
  await page.getByRole('button', { name: 'Run python3 hello.py' }).click()
  await parent.consent.getByRole('button', { name: 'Run', exact: true }).click()
  await expect.poll(() => parent.terminalText()).toContain('Hello from the sandbox!')
  await expect(parent.ide.getByRole('tree', { name: 'Files' })).toContainText('embed-demo')
  await shoot(page, 'embed')
})
