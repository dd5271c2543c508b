// A class's deadline as its student lives it on the real stack: the lab panel counts the time
// left in words, the teacher moves the deadline into the past and the panel says the class is
// closed within its minute, and a Submit then is refused with the stack's reason, nothing kept.
import { join } from 'node:path'
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { LabPanelPage } from './pages/LabPanelPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const labs = join(import.meta.dirname, '..', 'server', 'platform', 'class', 'grading', 'testing', 'labs')
const stack = stackForThisFile(['--no-default-sandbox', '--templates', labs])
const minute = 60_000

let context: BrowserContext
let page: Page
let joinToken: string

/** What the teacher sets (as the dashboard or npm run class does): a deadline, late work refused. */
async function setDeadline(deadline: Date): Promise<void> {
  const answer = await stack.ideApi('PUT', '/classes/monday/deadline', {
    deadline: deadline.toISOString(),
    late: { kind: 'refuse' },
    counts: 'best',
    examMode: false,
  })
  expect(answer.status, await answer.text()).toBe(200)
}

test.beforeAll(async ({ browser }) => {
  const created = await stack.api('POST', '/v2/sandboxes', {
    templateID: 'graded-sum',
    timeout: 1800,
    autoPause: true,
    metadata: { class: 'monday', student: 'ada' },
  })
  expect(created.status).toBe(201)
  const { sandboxID } = (await created.json()) as { sandboxID: string }
  // Two hours and a quarter from now: the panel counts it in hours and minutes.
  await setDeadline(new Date(Date.now() + (2 * 60 + 13) * minute + 30_000))
  const link = await stack.ideApi('POST', `/sandboxes/${sandboxID}/join-links`, {})
  expect(link.status).toBe(201)
  joinToken = ((await link.json()) as { token: string }).token
  context = await browser.newContext()
  page = await context.newPage()
})

test.afterAll(async () => {
  await context?.close()
})

const lab = () => new LabPanelPage(page)

test('the lab panel shows the time left to the deadline, in words', async () => {
  await new WorkbenchPage(page).goto(`${stack.url}/join#token=${joinToken}`)
  await expect(lab().button('Submit')).toBeEnabled({ timeout: 15_000 })
  await expect(lab().timeLeft).toHaveText(/^Due in 2 h 1[23] min\.$/)
  await expect(lab().timeLeft).toHaveAttribute('data-standing', 'open')
})

test('past the deadline a Submit is refused with why, and the panel then says the class is closed', async () => {
  await setDeadline(new Date(Date.now() - minute))
  // Before the panel's next minutely look at the deadline: the refusal makes it look at once.
  await lab().button('Submit').click()
  await expect(lab().panel.getByRole('alert')).toHaveText(
    /^Submit failed: the deadline has passed \(.+\) and this class takes no late submissions$/,
  )
  await expect(lab().timeLeft).toHaveText('Closed: the deadline has passed.')
  await expect(lab().timeLeft).toHaveAttribute('data-standing', 'closed')
  await expect(lab().panel.getByText('Nothing submitted yet.')).toBeVisible()
  await expect(lab().latestGrade).toHaveCount(0)
})
