import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { adaTotal, cyTotal, renamed } from '../server/platform/class/grading/testing/copiedWork'
import { runBash } from '../server/platform/launcher/testing/sandboxCalls'
import { axeFindings } from './axeFindings'
import { GradebookPage } from './pages/GradebookPage'
import { stackForThisFile } from './stack'

// The gradebook's tools on the real stack: Similar submissions points the teacher at the student
// who copied another's work with every name changed, and opens both side by side; a submission is
// deleted after the question (Escape cancels it), then all of a student's.

const projectRoot = join(import.meta.dirname, '..')
const labs = join(projectRoot, 'server', 'platform', 'class', 'grading', 'testing', 'labs')
const templates = mkdtempSync(join(tmpdir(), 'e2e-gradebook-tools-'))
const stack = stackForThisFile(['--no-default-sandbox', '--templates', templates])
test.describe.configure({ mode: 'serial' })

const solutions: Record<string, string> = { ada: adaTotal, ben: renamed(adaTotal), cy: cyTotal }

let teacher: Page
const gradebook = () => new GradebookPage(teacher, 'monday')

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000)
  cpSync(join(labs, 'graded-sum'), join(templates, 'graded-sum'), { recursive: true })
  const manifest = join(templates, 'graded-sum', '.lab', 'lab.json')
  writeFileSync(
    manifest,
    readFileSync(manifest, 'utf8').replace('"timeoutSeconds": 5', '"timeoutSeconds": 60'),
  )
  for (const [student, code] of Object.entries(solutions)) {
    const { sandboxID, envdAccessToken } = await stack.studentSandbox('monday', student, 'graded-sum')
    await runBash(
      { port: stack.port, token: envdAccessToken, sandboxId: sandboxID },
      `echo ${Buffer.from(code).toString('base64')} | base64 -d > ~/solution.py`,
    )
    // Ada submits twice, so one of hers can go alone.
    for (let i = 0; i < (student === 'ada' ? 2 : 1); i++) {
      const submitted = await stack.ideApi('POST', `/sandboxes/${sandboxID}/submissions`)
      expect(submitted.status).toBe(201)
    }
  }
  teacher = await (await browser.newContext()).newPage()
  await teacher.goto(stack.link('/class/monday'))
  await gradebook().open()
})

test.afterAll(() => rmSync(templates, { recursive: true, force: true }))

test('Similar submissions ranks the renamed copy first and opens both side by side', async () => {
  await teacher.getByRole('button', { name: "Compare the students' latest submissions…" }).click()
  const pairs = teacher.getByRole('table', {
    name: /^Pairs of the 3 students' latest submissions of graded-sum/,
  })
  await expect(pairs).toBeVisible({ timeout: 20_000 })
  await expect(pairs.getByRole('row').nth(1)).toContainText('ada and ben')
  await expect(pairs.getByRole('row').nth(1)).toContainText('%')
  await expect(pairs).toContainText('never a verdict')
  expect(await axeFindings(teacher)).toEqual([])
  await pairs.getByRole('button', { name: 'Compare ada and ben side by side' }).click()
  const view = teacher.getByRole('dialog', { name: /^ada and ben: \d+% similar$/ })
  await expect(view).toBeVisible()
  await expect(view.getByRole('button', { name: 'Close' })).toBeFocused()
  await expect(view.locator('.similar-excerpt').first()).toContainText('result = result + number')
  await expect(view.locator('.similar-excerpt').nth(1)).toContainText('acc = acc + x')
  expect(await axeFindings(teacher)).toEqual([])
  await teacher.keyboard.press('Escape')
  await expect(view).toBeHidden()
})

test("deletes one of Ada's submissions after asking (Escape cancels), then all of Ben's", async () => {
  await gradebook().row('ada', 'graded-sum').click()
  const view = gradebook().submission
  await expect(view).toBeVisible()
  await view.getByRole('button', { name: 'Delete this submission…' }).click()
  const asking = teacher.getByRole('alertdialog', { name: /^Delete ada's submission of / })
  await expect(asking.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await teacher.keyboard.press('Escape')
  await expect(asking).toBeHidden()
  await expect(gradebook().row('ada', 'graded-sum').getByRole('cell').nth(2)).toHaveText('2')

  await view.getByRole('button', { name: 'Delete this submission…' }).click()
  await asking.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(gradebook().row('ada', 'graded-sum').getByRole('cell').nth(2)).toHaveText('1')
  // The view shows her other attempt.
  await expect(view).toContainText('Attempt 1 of 1')
  await view.getByRole('button', { name: 'Close' }).click()

  await gradebook().row('ben', 'graded-sum').click()
  await expect(view).toHaveAccessibleName("ben's submission of graded-sum")
  await view.getByRole('button', { name: 'Delete this submission…' }).click()
  await teacher
    .getByRole('alertdialog', { name: /^Delete ben's submission of / })
    .getByRole('button', { name: 'Delete', exact: true })
    .click()
  await expect(view).toBeHidden()
  await expect(gradebook().row('ben', 'graded-sum')).toContainText('no submission')
})
