import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { axeFindings } from './axeFindings'
import { GradebookPage } from './pages/GradebookPage'
import { LabPanelPage } from './pages/LabPanelPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { stackForThisFile } from './stack'

// The teacher's gradebook on the real stack: a class of two from a copy of the graded-sum lab
// (server/platform/class/grading/testing/labs/) whose hidden test the teacher got wrong; the
// student submits from their lab panel, the teacher sees the row, opens the submission (its
// diff and the grader's output), downloads the CSV (the API's and the CLI's, byte for byte),
// fixes the test in the template and regrades everyone.

const projectRoot = join(import.meta.dirname, '..')
const labs = join(projectRoot, 'server', 'platform', 'class', 'grading', 'testing', 'labs')
// Made when the file loads (the stack is told of it then); filled before the class is made.
const templates = mkdtempSync(join(tmpdir(), 'e2e-gradebook-labs-'))
const stack = stackForThisFile(['--no-default-sandbox', '--templates', templates])
test.describe.configure({ mode: 'serial' })

const hiddenTest = join(templates, 'graded-sum', 'grader', 'test_hidden.py')
const replaceIn = (path: string, from: string, to: string) =>
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to))
const solved = 'def total(numbers):\\n    return sum(numbers)\\n'

let teacher: Page
let ada: WorkbenchPage
const gradebook = () => new GradebookPage(teacher, 'monday')

test.beforeAll(async ({ browser }) => {
  cpSync(join(labs, 'graded-sum'), join(templates, 'graded-sum'), { recursive: true })
  // The teacher's mistake: test_positive wants 7 for [1, 2, 3]. And room for a busy machine.
  replaceIn(hiddenTest, 'total([1, 2, 3]), 6', 'total([1, 2, 3]), 7')
  replaceIn(join(templates, 'graded-sum', '.lab', 'lab.json'), '"timeoutSeconds": 5', '"timeoutSeconds": 60')
  const tokens: Record<string, string> = {}
  for (const student of ['ada', 'ben']) {
    const { sandboxID } = await stack.studentSandbox('monday', student, 'graded-sum')
    tokens[student] = await stack.joinToken(sandboxID)
  }
  ada = new WorkbenchPage(await (await browser.newContext()).newPage())
  await ada.goto(`${stack.url}/join#token=${tokens.ada}`)
  teacher = await (await browser.newContext({ acceptDownloads: true })).newPage()
})

test.afterAll(() => rmSync(templates, { recursive: true, force: true }))

test('a student submits, and the teacher sees the row: score, attempts, time; sortable by student', async () => {
  test.setTimeout(120_000)
  await ada.run(`printf '${solved}' > ~/solution.py && echo solved-by-ada`, 'solved-by-ada')
  const lab = new LabPanelPage(ada.page)
  await lab.submit()
  // 3 of 4: the right sum, but the wrong hidden test_positive fails it.
  await expect(lab.submissionStatus).toHaveText('Graded: 3 / 4.')

  await teacher.goto(stack.link('/class/monday'))
  await expect(teacher.getByRole('heading', { name: 'Class monday' })).toBeVisible({ timeout: 20_000 })
  await gradebook().open()
  await expect(gradebook().row('ada', 'graded-sum')).toContainText('3 / 4')
  await expect(gradebook().row('ada', 'graded-sum').getByRole('cell').nth(2)).toHaveText('1')
  await expect(gradebook().row('ben', 'graded-sum')).toContainText('no submission')
  expect(await gradebook().students()).toEqual(['ada', 'ben'])
  expect(await axeFindings(teacher)).toEqual([])
  const studentHeader = gradebook().table.getByRole('columnheader', { name: /^Student/ })
  await expect(studentHeader).toHaveAttribute('aria-sort', 'ascending')
  await studentHeader.getByRole('button').click()
  await expect(studentHeader).toHaveAttribute('aria-sort', 'descending')
  expect(await gradebook().students()).toEqual(['ben', 'ada'])
})

test('a row opens the submission: its diff against the starting files, the grader output, its files', async () => {
  await gradebook().row('ada', 'graded-sum').click()
  const view = gradebook().submission
  await expect(view).toHaveAccessibleName("ada's submission of graded-sum")
  await expect(view).toContainText('3 / 4')
  await expect(view.locator('pre.diff')).toContainText('+    return sum(numbers)')
  await expect(view.locator('pre.diff')).toContainText('-    return 0')
  await expect(view.getByRole('listitem').filter({ hasText: 'test_positive' })).toContainText('failed')
  await expect(view).toContainText('test_positive')
  expect(await axeFindings(teacher)).toEqual([])
  await view.locator('summary', { hasText: 'solution.py' }).click()
  await expect(view.locator('details[open] pre')).toHaveText('def total(numbers):\n    return sum(numbers)\n')
  await teacher.keyboard.press('Escape')
  await expect(view).toBeHidden()
  // The keyboard's way in: the score's own button.
  await gradebook()
    .row('ada', 'graded-sum')
    .getByRole('button', { name: /show ada's submission/ })
    .press('Enter')
  await expect(view).toBeVisible()
  await view.getByRole('button', { name: 'Close' }).click()
})

test('Download CSV saves the gradebook as the API and npm run class -- --grades --csv give it', async () => {
  const { name, text } = await gradebook().downloadCsv()
  expect(name).toBe('grades-monday.csv')
  const api = await (await stack.ideApi('GET', '/classes/monday/grades?format=csv')).text()
  expect(text).toBe(api)
  expect(text.split('\r\n')).toEqual([
    'student,lab,score,max,submitted_at,late',
    expect.stringMatching(/^ada,graded-sum,3,4,\d{4}-\d\d-\d\dT[\d:.]+Z,false$/),
    'ben,graded-sum,,,,',
    '',
  ])
  const cli = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'server/class/cli.ts', '--grades', 'monday', '--csv', '--url', stack.url],
    {
      cwd: projectRoot,
      env: { ...process.env, SANDBOX_API_KEY: stack.apiKey, SANDBOX_DATA_DIR: stack.dataDir },
    },
  ).toString()
  expect(cli).toBe(api)
})

test('the teacher fixes the template’s test and regrades all: the row shows the new score', async () => {
  test.setTimeout(180_000)
  replaceIn(hiddenTest, 'total([1, 2, 3]), 7', 'total([1, 2, 3]), 6')
  await gradebook().regradeAll('1 submission regraded, 1 with a new score.')
  await expect(gradebook().row('ada', 'graded-sum')).toContainText('4 / 4')
  await gradebook().row('ada', 'graded-sum').click()
  await expect(
    gradebook().submission.getByRole('listitem').filter({ hasText: 'test_positive' }),
  ).toContainText('passed')
  await gradebook().submission.getByRole('button', { name: 'Close' }).click()
})
