// A class's deadline as its student lives it on the real stack: the lab panel counts the time
// left in words, the teacher moves the deadline into the past and the panel says the class is
// closed at its next look, and a Submit then is refused with the stack's reason, nothing kept.
// Then the teacher sets the deadline and its late policy on the dashboard's form, gives the
// student an extension from the keyboard in its dialog, and her panel counts to the extension.
import { join } from 'node:path'
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import type { ClassDeadline } from '../src/contract/deadlines'
import { axeFindings } from './axeFindings'
import { isoOf, localInput } from './dateFields'
import { ClassDashboardPage } from './pages/ClassDashboardPage'
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
  const { sandboxID } = await stack.studentSandbox('monday', 'ada', 'graded-sum')
  // Two hours and a quarter from now: the panel counts it in hours and minutes.
  await setDeadline(new Date(Date.now() + (2 * 60 + 13) * minute + 30_000))
  joinToken = await stack.joinToken(sandboxID)
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
  // Likely before the panel's next look at the deadline: the refusal makes it look at once.
  await lab().button('Submit').click()
  await expect(lab().panel.getByRole('alert')).toHaveText(
    /^Submit failed: the deadline has passed \(.+\) and this class takes no late submissions$/,
  )
  await expect(lab().timeLeft).toHaveText('Closed: the deadline has passed.')
  await expect(lab().timeLeft).toHaveAttribute('data-standing', 'closed')
  await expect(lab().panel.getByText('Nothing submitted yet.')).toBeVisible()
  await expect(lab().latestGrade).toHaveCount(0)
})

const heldDeadline = async () => {
  const answer = await stack.ideApi('GET', '/classes/monday/deadline')
  expect(answer.status).toBe(200)
  return (await answer.json()) as ClassDeadline
}

test('the teacher sets the deadline on the dashboard and gives ada an extension; her panel counts to it', async ({
  browser,
}) => {
  // A panel in view asks about the deadline every 15 s (dueRefreshMs): the extension shows at its next look.
  test.setTimeout(120_000)
  const teacherContext = await browser.newContext()
  try {
    const teacher = await teacherContext.newPage()
    const dashboard = new ClassDashboardPage(teacher, 'monday')
    await teacher.goto(stack.link('/class/monday'))
    await expect(teacher.getByRole('heading', { name: 'Class monday' })).toBeVisible({ timeout: 20_000 })

    // An hour from now; late work taken, less 15% a day; the last on-time submission counts.
    const form = dashboard.deadline
    const classDue = await localInput(teacher, Date.now() + 60 * minute)
    await dashboard.fillDeadline(classDue, 15, 'the last on-time submission')
    await form.getByRole('button', { name: 'Save the deadline' }).click()
    await expect(form.getByRole('status')).toHaveText('The deadline is saved.')
    // The form shows what the stack now holds, and the stack holds what the form said.
    await expect(form.getByRole('textbox', { name: 'Deadline', exact: true })).toHaveValue(classDue)
    await expect(form.getByRole('combobox', { name: 'After it' })).toHaveValue('late')
    await expect(form.getByRole('spinbutton', { name: 'Penalty per day started (%)' })).toHaveValue('15')
    await expect(form.getByRole('combobox', { name: 'Grade that counts' })).toHaveValue('last')
    expect(await heldDeadline()).toEqual({
      deadline: await isoOf(teacher, classDue),
      late: { kind: 'late', penaltyPercentPerDay: 15 },
      counts: 'last',
      examMode: false,
      extensions: {},
    })
    await expect(dashboard.row('ada')).toContainText('due ')
    await expect(dashboard.row('ada')).not.toContainText('(extension)')

    // From the keyboard: Enter opens the dialog on her deadline now, Escape leaves it unchanged.
    const extension = dashboard.row('ada').getByRole('button', { name: 'Extension for ada…' })
    const dialog = dashboard.extensionDialog('ada')
    const until = dialog.getByRole('textbox', { name: 'Their deadline' })
    await extension.press('Enter')
    await expect(dialog).toBeVisible()
    await expect(until).toHaveValue(classDue)
    // No "Back to the class's deadline" for a student without an extension.
    await expect(dialog.getByRole('button', { name: 'Back to the class’s deadline' })).toHaveCount(0)
    expect(await axeFindings(teacher)).toEqual([])
    await teacher.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    expect((await heldDeadline()).extensions).toEqual({})

    const extended = await localInput(teacher, Date.now() + (5 * 60 + 45) * minute)
    await extension.press('Enter')
    await expect(dialog).toBeVisible()
    await until.fill(extended)
    await dialog.getByRole('button', { name: 'Give the extension' }).press('Enter')
    await expect(dialog).toBeHidden()
    await expect(form.getByRole('status')).toHaveText('ada has an extension.')
    await expect(dashboard.row('ada')).toContainText('(extension)')
    expect((await heldDeadline()).extensions).toEqual({ ada: await isoOf(teacher, extended) })
  } finally {
    await teacherContext.close()
  }

  // Ada's panel, open all along: at its next look it counts to her own deadline, and says so.
  await expect(lab().timeLeft).toHaveText(/^Due in 5 h 4\d min \(your extension\)\.$/, { timeout: 30_000 })
  await expect(lab().timeLeft).toHaveAttribute('data-standing', 'open')
})
