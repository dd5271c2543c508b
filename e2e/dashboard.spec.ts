import { expect, type Page, test } from '@playwright/test'
import { ClassDashboardPage } from './pages/ClassDashboardPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { stackForThisFile } from './stack'

// The teacher's dashboard (/class/{name}) on the real stack: a class of two from the
// python-basics lab, live as a student opens their link and fixes their code, the check for
// everyone with how many pass, a reset, pause and resume, and the class's end.

const stack = stackForThisFile()
test.describe.configure({ mode: 'serial' })

const solved = 'def average(numbers):\\n    return sum(numbers) / len(numbers) if numbers else 0\\n'

/** The IDE API as the teacher's tools call it; the answer's JSON. */
async function asTool<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await stack.ideApi(method, path, body)
  expect(res.ok, `${method} ${path}`).toBe(true)
  return (await res.json()) as T
}

const students: Record<string, { sandboxId: string; token: string }> = {}
let teacher: Page
let ada: WorkbenchPage

test.beforeAll(async ({ browser }) => {
  for (const student of ['ada', 'ben']) {
    const created = await stack.api('POST', '/v2/sandboxes', {
      templateID: 'python-basics',
      timeout: 1800,
      autoPause: true,
      metadata: { class: 'monday', student },
    })
    const { sandboxID } = (await created.json()) as { sandboxID: string }
    const link = await asTool<{ token: string }>('POST', `/sandboxes/${sandboxID}/join-links`, {})
    students[student] = { sandboxId: sandboxID, token: link.token }
  }
  teacher = await (await browser.newContext()).newPage()
})

const dashboard = () => new ClassDashboardPage(teacher, 'monday')
const row = (name: string) => dashboard().row(name)

test('shows every student of the class, live, as one opens their link', async ({ browser }) => {
  await teacher.goto(stack.link('/class/monday'))
  await expect(teacher.getByRole('heading', { name: 'Class monday' })).toBeVisible({ timeout: 20_000 })
  await expect(row('ada')).toContainText('running')
  await expect(row('ada')).toContainText('not opened yet')
  await expect(row('ben')).toContainText('not checked')

  ada = new WorkbenchPage(await (await browser.newContext()).newPage())
  await ada.goto(`${stack.url}/join#token=${students.ada?.token}`)
  await ada.run(`printf '${solved}' > ~/main.py && echo fixed-by-ada`, 'fixed-by-ada')
  // Without a reload: the dashboard follows.
  await expect(row('ada')).toContainText('opened at', { timeout: 10_000 })
  await expect(row('ada')).toContainText(/just now|s ago/)
  await expect(row('ben')).toContainText('not since the stack started')
})

test('runs the check for everyone and says how many pass; a student’s verdict opens to its output', async () => {
  await dashboard().checkEveryone('1 of 2 passing')
  await expect(row('ada')).toContainText('passed')
  await expect(row('ben')).toContainText('failed')
  await row('ben').getByText('failed', { exact: true }).click()
  await expect(row('ben')).toContainText('FAILED')
})

test('resets a student’s lab after asking, and pauses and resumes a student', async () => {
  await row('ada').getByRole('button', { name: "Reset ada's lab" }).click()
  const dialog = teacher.getByRole('alertdialog', { name: "Reset ada's lab?" })
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await dialog.getByRole('button', { name: 'Reset' }).click()
  await expect(row('ada')).toContainText('reset to the starting files', { timeout: 15_000 })
  await row('ada').getByRole('button', { name: "Check ada's lab" }).click()
  await expect(row('ada')).toContainText('failed', { timeout: 30_000 })

  await row('ben').getByRole('button', { name: "Pause ben's sandbox" }).click()
  await expect(row('ben')).toContainText('paused', { timeout: 15_000 })
  await row('ben').getByRole('button', { name: "Resume ben's sandbox" }).click()
  await expect(row('ben')).toContainText('running', { timeout: 15_000 })
})

test('opens a student’s workspace with their live terminal, and the student sees the teacher is there', async () => {
  await expect(ada.toolbar.getByRole('status')).toHaveCount(0)
  // Her terminal, as she left it, and the same one: what the teacher types, she sees.
  const workspace = await dashboard().openLiveWorkspace('ada', 'fixed-by-ada', ada)
  // The teacher shows among the people on her page, and she among those on the teacher's.
  const teacherHere = ada.page
    .getByRole('group', { name: 'People here' })
    .getByRole('button', { name: /^Teacher/ })
  await expect(teacherHere).toBeVisible({ timeout: 15_000 })
  await expect(
    workspace.page.getByRole('group', { name: 'People here' }).getByRole('button', { name: /^ada/ }),
  ).toBeVisible()
  await workspace.page.close()
  await expect(ada.toolbar.getByRole('status')).toHaveCount(0, { timeout: 30_000 })
  // The teacher's tab said it was closing: gone from her toolbar at once, not after 30 s.
  await expect(teacherHere).toHaveCount(0, { timeout: 5_000 })
})

test('ends the class after asking: every sandbox goes', async () => {
  await dashboard().endClass()
  const left = (await (await stack.api('GET', '/v2/sandboxes')).json()) as {
    metadata: Record<string, string>
  }[]
  expect(left.filter((s) => s.metadata.class === 'monday')).toEqual([])
})
