// The gradebook and deadline of a class on E2B, in the teacher's dashboard: the class's sandboxes
// live on "E2B" (a second platform with its own key, without internet, holding the graded-sum
// lab too); before anyone submits, the Gradebook tab lists both students, the teacher sets the
// deadline on the form (exam mode is off, saying why) and gives one student an extension, and
// the stack holds both.
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import type { ClassDeadline } from '../src/contract/deadlines'
import { axeFindings } from './axeFindings'
import { isoOf, localInput } from './dateFields'
import { ClassDashboardPage } from './pages/ClassDashboardPage'
import { GradebookPage } from './pages/GradebookPage'
import { freePort, LocalStack } from './stack'

test.describe.configure({ mode: 'serial' })

const labs = join(import.meta.dirname, '..', 'server', 'platform', 'class', 'grading', 'testing', 'labs')
const stack = new LocalStack(undefined, ['--no-default-sandbox', '--templates', labs])
let cloud: LocalStack
let remoteId: string
let teacher: Page
const minute = 60_000

/** The IDE API as the teacher's tools call it (npm run class does the same); the answer's JSON. */
async function asTool<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await stack.ideApi(method, path, body)
  expect(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`).toBe(true)
  return (await res.json()) as T
}

test.beforeAll(async ({ browser }) => {
  cloud = new LocalStack(await freePort(), ['--no-default-sandbox', '--templates', labs])
  await Promise.all([stack.start(), cloud.start()])
  ;({ remoteId } = await asTool<{ remoteId: string }>('POST', '/remotes', {
    apiKey: cloud.apiKey,
    apiUrl: cloud.url,
  }))
  for (const student of ['ada', 'ben'])
    await asTool('POST', `/remotes/${remoteId}/sandboxes`, {
      templateId: 'graded-sum',
      timeoutSeconds: 1800,
      metadata: { class: 'friday', student },
    })
  teacher = await (await browser.newContext()).newPage()
})
test.afterAll(async () => {
  await Promise.all([stack.dispose(), cloud?.dispose()])
})

const dashboard = () => new ClassDashboardPage(teacher, 'friday')
const gradebook = () => new GradebookPage(teacher, 'friday')
const heldDeadline = () => asTool<ClassDeadline>('GET', `/remotes/${remoteId}/classes/friday/deadline`)

test('the Gradebook tab of the E2B class lists its students before anyone submits', async () => {
  await teacher.goto(stack.link('/class'))
  await teacher.getByRole('link', { name: 'friday' }).click()
  await expect(teacher).toHaveURL(`${stack.url}/e2b/${remoteId}/class/friday`)
  await expect(teacher.getByRole('heading', { name: 'Class friday' })).toBeVisible({ timeout: 20_000 })
  await gradebook().open()
  expect(await gradebook().students()).toEqual(['ada', 'ben'])
  await expect(gradebook().row('ada', 'graded-sum')).toContainText('no submission')
  await expect(gradebook().row('ben', 'graded-sum')).toContainText('no submission')
  expect(await axeFindings(teacher)).toEqual([])
})

test('the teacher sets the deadline on the form and gives ben an extension; the stack holds both', async () => {
  await teacher.getByRole('tab', { name: 'Students' }).click()
  const form = dashboard().deadline
  // Exam mode cannot close a sandbox on E2B: the option is off, and says why.
  const exam = form.getByRole('checkbox', { name: /^Exam mode/ })
  await expect(exam).toBeDisabled()
  await expect(exam).not.toBeChecked()
  await expect(exam).toHaveAccessibleDescription(/Not for a class on E2B/)

  const classDue = await localInput(teacher, Date.now() + 60 * minute)
  await dashboard().fillDeadline(classDue, 15)
  await form.getByRole('button', { name: 'Save the deadline' }).click()
  await expect(form.getByRole('status')).toHaveText('The deadline is saved.')
  await expect(form.getByRole('textbox', { name: 'Deadline', exact: true })).toHaveValue(classDue)
  expect(await heldDeadline()).toEqual({
    deadline: await isoOf(teacher, classDue),
    late: { kind: 'late', penaltyPercentPerDay: 15 },
    counts: 'best',
    examMode: false,
    extensions: {},
  })
  await expect(dashboard().row('ada')).toContainText('due ')

  const extended = await localInput(teacher, Date.now() + 3 * 60 * minute)
  await dashboard().row('ben').getByRole('button', { name: 'Extension for ben…' }).click()
  const dialog = dashboard().extensionDialog('ben')
  await dialog.getByRole('textbox', { name: 'Their deadline' }).fill(extended)
  await dialog.getByRole('button', { name: 'Give the extension' }).click()
  await expect(dialog).toBeHidden()
  await expect(form.getByRole('status')).toHaveText('ben has an extension.')
  await expect(dashboard().row('ben')).toContainText('(extension)')
  expect((await heldDeadline()).extensions).toEqual({ ben: await isoOf(teacher, extended) })

  // The gradebook follows: ben's row is due at his extension.
  const ben = await asTool<{ rows: { student: string; dueAt?: string; extended?: boolean }[] }>(
    'GET',
    `/remotes/${remoteId}/classes/friday/grades`,
  )
  expect(ben.rows.find((r) => r.student === 'ben')).toMatchObject({
    dueAt: await isoOf(teacher, extended),
    extended: true,
  })
  expect(await axeFindings(teacher)).toEqual([])
})
