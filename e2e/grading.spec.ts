// A graded lab on the real stack, as its student lives it: the teacher's class of one from the
// graded-sum lab (server/platform/class/grading/testing/labs/), the student's join link opened in
// their own browser, a failing submission and its feedback, a fix made in the editor and submitted
// after saving, the history of both, hidden tests that are nowhere in the student's sandbox even
// for root, a student who rewrites the tests in their sandbox gaining nothing, and a submission
// cut at the lab's time limit.
import { join } from 'node:path'
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { LabPanelPage } from './pages/LabPanelPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const labs = join(import.meta.dirname, '..', 'server', 'platform', 'class', 'grading', 'testing', 'labs')
const stack = stackForThisFile(['--no-default-sandbox', '--templates', labs])
const home = '/home/user'

let files: SandboxFiles
/** The student's browser: a join link is used once, by one browser, so every test shares it. */
let context: BrowserContext
let page: Page
let joinToken: string

test.beforeAll(async ({ browser }) => {
  // What the teacher does (as dashboard.spec.ts): a sandbox of the lab for the student, a join link to it.
  const { sandboxID } = await stack.studentSandbox('monday', 'ada', 'graded-sum')
  files = await SandboxFiles.at(stack, sandboxID)
  joinToken = await stack.joinToken(sandboxID)
  context = await browser.newContext()
  page = await context.newPage()
})

test.afterAll(async () => {
  await context?.close()
})

const lab = () => new LabPanelPage(page)
const editor = () => new EditorPage(page)

test('the student opens their graded lab: Submit beside Check, nothing submitted yet', async () => {
  await new WorkbenchPage(page).goto(`${stack.url}/join#token=${joinToken}`)
  await expect(lab().panel).toHaveAccessibleName('Lab: A sum, graded')
  await expect(lab().button('Check')).toBeVisible()
  await expect(lab().button('Submit')).toBeEnabled({ timeout: 15_000 })
  await expect(lab().panel.getByText('Nothing submitted yet.')).toBeVisible()
  await expect(lab().latestGrade).toHaveCount(0)
})

test('the hidden tests are nowhere in the student’s sandbox, not even for root', async () => {
  test.setTimeout(180_000)
  expect(await files.stat(`${home}/grader`)).toBeUndefined()
  expect(await files.stat(`${home}/.lab/start/grader`)).toBeUndefined()
  const info = (await (await stack.ideApi('GET', '/stack')).json()) as { root: { kind: string } }
  test.skip(info.root.kind !== 'sudo', 'sandboxes have no root on this machine')
  // A line of the hidden tests and one of the visible tests, typed in two halves so the terminal's
  // own echo holds neither. The visible one is found (so the search reaches the home); the hidden
  // one nowhere. /usr is the host's system, shared read-only by every sandbox and never written
  // when one is made (and 6 GB to read), so it is left out with /proc, /sys and /dev.
  const wb = new WorkbenchPage(page)
  await wb.type(
    [
      'x="--exclude-dir=proc --exclude-dir=sys --exclude-dir=dev --exclude-dir=usr"',
      'v="total([1,"; h="total([5,"',
      'echo "found visible=$(sudo -n grep -rIlF -D skip $x -e "$v 2])" / 2>/dev/null | wc -l)' +
        ' hidden=$(sudo -n grep -rIlF -D skip $x -e "$h -2])" / 2>/dev/null | wc -l)"\n',
    ].join('; '),
  )
  await expect(wb.terminalRows).toContainText(/found visible=[1-9]\d* hidden=0/, { timeout: 120_000 })
})

test('a failing submission: the grade, each test passed or failed with its message, one entry in the history', async () => {
  test.setTimeout(150_000)
  await lab().submit()
  await expect(lab().submissionStatus).toHaveText('Graded: 1 / 4.')
  await expect(lab().latestGrade).toContainText('Grade: 1 / 4')
  await expect(lab().testResult('test_empty')).toContainText('Passed: test_empty (1 / 1 point)')
  await expect(lab().testResult('test_positive')).toContainText('Failed: test_positive (0 / 1 point)')
  await expect(lab().testResult('test_positive')).toContainText('0 != 6')
  await expect(lab().testResult('test_negative')).toContainText('Failed: test_negative (0 / 2 points)')
  await expect(lab().testResult('test_negative')).toContainText('0 != 3')
  await expect(lab().historyEntries).toHaveCount(1)
  await expect(lab().historyEntries).toContainText('1 / 4')
  await screenshot(page, test.info(), 'grading-failed')
})

test('fixed in the editor and submitted after Save all: full marks, and both submissions newest first', async () => {
  test.setTimeout(150_000)
  await editor().tab('solution.py').click()
  await editor().editable()
  await editor().retypeLastLine('return sum(numbers)')
  await expect(editor().tab('solution.py')).not.toHaveAccessibleName('solution.py')

  // Unsaved: Submit asks first; Cancel submits nothing.
  await lab().button('Submit').click()
  await expect(lab().unsavedDialog).toBeVisible()
  await expect(lab().unsavedDialog).toContainText('solution.py has changes that are not saved')
  await lab().unsavedDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(lab().unsavedDialog).toBeHidden()
  await expect(lab().historyEntries).toHaveCount(1)

  await lab().button('Submit').click()
  await lab().unsavedDialog.getByRole('button', { name: 'Save all and submit' }).click()
  await lab().graded()
  await expect(lab().submissionStatus).toHaveText('Graded: 4 / 4.')
  await expect(editor().tab('solution.py')).toHaveAccessibleName('solution.py')
  expect(await files.read(`${home}/solution.py`)).toContain('    return sum(numbers)\n')
  await expect(lab().latestGrade).toContainText('Grade: 4 / 4')
  for (const name of ['test_empty', 'test_positive', 'test_negative'])
    await expect(lab().testResult(name)).toContainText(`Passed: ${name}`)

  const entries = lab().historyEntries
  await expect(entries).toHaveCount(2)
  await expect(entries.nth(0)).toContainText('4 / 4')
  await expect(entries.nth(1)).toContainText('1 / 4')
  // One earlier submission unfolded at a time, with its own tests.
  const older = entries.nth(1).getByRole('button')
  const newer = entries.nth(0).getByRole('button')
  await older.click()
  await expect(older).toHaveAttribute('aria-expanded', 'true')
  await expect(entries.nth(1)).toContainText('Failed: test_negative')
  await newer.click()
  await expect(newer).toHaveAttribute('aria-expanded', 'true')
  await expect(older).toHaveAttribute('aria-expanded', 'false')
  await screenshot(page, test.info(), 'grading-passed')
})

test('a student who rewrites the visible tests, the lab’s manifest and a grader of their own gains nothing', async () => {
  test.setTimeout(150_000)
  // What the student may do in their own sandbox (they own the home; the terminal would do the same).
  await files.write(`${home}/solution.py`, 'def total(numbers):\n    return 0\n')
  await files.write(
    `${home}/tests/test_visible.py`,
    'import unittest\n\n\nclass TestVisible(unittest.TestCase):\n    def test_small(self):\n        pass\n',
  )
  const everyTestPasses =
    '<testsuite><testcase name="test_empty"/><testcase name="test_positive"/><testcase name="test_negative"/></testsuite>'
  await files.write(`${home}/grader/run.py`, `open("report.xml", "w").write('${everyTestPasses}')\n`)
  await files.write(`${home}/grader/test_hidden.py`, 'import unittest\n')
  const manifest = JSON.parse(await files.read(`${home}/.lab/lab.json`)) as { grade: { command: string } }
  manifest.grade.command = `echo '${everyTestPasses}' > report.xml`
  await files.write(`${home}/.lab/lab.json`, JSON.stringify(manifest))

  // Their own check now passes: it proves nothing.
  await lab().check()
  await expect(lab().result).toHaveText('Passed.')
  // The grade is the lab's own tests' on the submitted solution.
  await lab().submit()
  await expect(lab().submissionStatus).toHaveText('Graded: 1 / 4.')
  await expect(lab().testResult('test_negative')).toContainText('Failed: test_negative')
  await expect(lab().historyEntries).toHaveCount(3)
})

test('a submission that never ends is cut at the lab’s time limit, and the panel says so', async () => {
  test.setTimeout(150_000)
  await files.write(`${home}/solution.py`, 'def total(numbers):\n    while True:\n        pass\n')
  await lab().submit()
  await expect(lab().submissionStatus).toHaveText('Graded: 0 / 0.')
  await expect(lab().latestGrade).toContainText('Problem: cut at its time limit of 5 s')
  await expect(lab().historyEntries).toHaveCount(4)
})
