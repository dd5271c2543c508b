import { expect, type Page, test } from '@playwright/test'
import { ClassDashboardPage } from './pages/ClassDashboardPage'
import { EditorPage } from './pages/EditorPage'
import { ExplorerPage } from './pages/ExplorerPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { freePort, LocalStack } from './stack'

// A class with E2B behind it: the teacher's stack keeps E2B's key, the class's sandboxes live on
// "E2B" (a second platform with its own key, without internet), students' pages reach their
// sandbox there directly with its own token, and the stack serves only the IDE, the links and the
// dashboard.

test.describe.configure({ mode: 'serial' })

const stack = new LocalStack()
let cloud: LocalStack
let remoteId: string
const students: Record<string, { sandboxId: string; token: string }> = {}
let teacher: Page
let ada: WorkbenchPage

/** The IDE API as the teacher's tools call it (npm run class does the same); the answer's JSON. */
async function asTool<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await stack.ideApi(method, path, body)
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true)
  return (await res.json()) as T
}

test.beforeAll(async ({ browser }) => {
  cloud = new LocalStack(await freePort(), ['--no-default-sandbox'])
  await Promise.all([stack.start(), cloud.start()])
  ;({ remoteId } = await asTool<{ remoteId: string }>('POST', '/remotes', {
    apiKey: cloud.apiKey,
    apiUrl: cloud.url,
  }))
  for (const student of ['ada', 'ben']) {
    const { sandboxId } = await asTool<{ sandboxId: string }>('POST', `/remotes/${remoteId}/sandboxes`, {
      templateId: 'python-basics',
      timeoutSeconds: 1800,
      metadata: { class: 'monday', student },
    })
    const link = await asTool<{ token: string }>(
      'POST',
      `/remotes/${remoteId}/sandboxes/${sandboxId}/join-links`,
      {},
    )
    students[student] = { sandboxId, token: link.token }
  }
  teacher = await (await browser.newContext()).newPage()
})
test.afterAll(async () => {
  await Promise.all([stack.dispose(), cloud.dispose()])
})

const dashboard = () => new ClassDashboardPage(teacher, 'monday')
const row = (name: string) => dashboard().row(name)

test("a student's link opens her sandbox on E2B; her page talks to E2B's runtime, not the stack's", async ({
  browser,
}) => {
  const { sandboxId, token } = students.ada as { sandboxId: string; token: string }
  const page = await (await browser.newContext()).newPage()
  const runtimeHosts = new Set<string>()
  page.on('request', (req) => {
    const host = new URL(req.url()).host
    if (host.startsWith('49983-') || host.includes(`-${sandboxId}.`)) runtimeHosts.add(host)
  })
  ada = new WorkbenchPage(page)
  await page.goto(`${stack.url}/join#token=${token}`)
  await expect(ada.state).toHaveText('Running', { timeout: 20_000 })
  expect(page.url()).toBe(`${stack.url}/e2b/${remoteId}/${sandboxId}`)
  await expect(ada.toolbar.getByRole('button', { name: 'Sandboxes' })).toHaveCount(0)
  await ada.run('echo on-$E2B_SANDBOX_ID', `on-${sandboxId}`)
  await expect(new ExplorerPage(page).item('main.py')).toBeVisible({ timeout: 15_000 })
  // Every runtime call went to the cloud's sandbox domain (its shards included).
  expect([...runtimeHosts].length).toBeGreaterThan(0)
  for (const host of runtimeHosts) expect(host).toMatch(new RegExp(`${sandboxId}\\.localhost:${cloud.port}$`))

  // Ben's sandbox, asked for from her page: refused, nothing of his given.
  const ben = students.ben?.sandboxId as string
  const refused = await page.evaluate(
    async ({ path }) => {
      const res = await fetch(path, {
        headers: {
          'X-Sandbox-IDE': '1',
          'X-Sandbox-IDE-Key': localStorage.getItem('sandbox-ide:page-key') ?? '',
        },
      })
      return { status: res.status, body: await res.text() }
    },
    { path: `/ide/api/remotes/${remoteId}/sandboxes/${ben}/session` },
  )
  expect(refused.status).toBe(403)
  expect(refused.body).not.toContain(ben)
  // The cloud's key never reached her page.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain(
    cloud.apiKey,
  )
})

test("the teacher's dashboard of the E2B class: live rows, the check for everyone, a student's live terminal", async () => {
  await teacher.goto(stack.link('/class'))
  await teacher.getByRole('link', { name: 'monday' }).click()
  await expect(teacher).toHaveURL(`${stack.url}/e2b/${remoteId}/class/monday`)
  await expect(teacher.getByRole('heading', { name: 'Class monday' })).toBeVisible({ timeout: 20_000 })
  await expect(row('ada')).toContainText('opened at')
  await expect(row('ben')).toContainText('not opened yet')

  await ada.run(
    `printf 'def average(numbers):\\n    return sum(numbers) / len(numbers) if numbers else 0\\n' > ~/main.py && echo fixed-by-ada`,
    'fixed-by-ada',
  )
  await dashboard().checkEveryone('1 of 2 passing')
  await expect(row('ada')).toContainText('passed')
  await expect(row('ben')).toContainText('failed')

  const workspace = await dashboard().openLiveWorkspace('ada', 'fixed-by-ada', ada)

  // The teacher and ada edit her main.py together, through a relay in her sandbox on E2B.
  const hers = new EditorPage(ada.page)
  const theirs = new EditorPage(workspace.page)
  await hers.open('/home/user/main.py')
  await hers.editable()
  await theirs.open('/home/user/main.py')
  await theirs.editable()
  await hers.typeAtEnd('# ada was here')
  await expect.poll(() => theirs.text(), { timeout: 15_000 }).toContain('# ada was here')
  await expect(
    workspace.page
      .getByRole('group', { name: 'People here' })
      .getByRole('button', { name: 'ada, in main.py' }),
  ).toBeVisible({ timeout: 15_000 })
  // The owner in her class sandbox is shown to her as her teacher.
  await expect(
    ada.page.getByRole('group', { name: 'People here' }).getByRole('button', { name: /^Teacher/ }),
  ).toBeVisible({ timeout: 15_000 })
  await workspace.page.close()

  await row('ben').getByRole('button', { name: "Pause ben's sandbox" }).click()
  await expect(row('ben')).toContainText('paused', { timeout: 15_000 })
  const benOnCloud = (await (await cloud.api('GET', `/sandboxes/${students.ben?.sandboxId}`)).json()) as {
    state: string
  }
  expect(benOnCloud.state).toBe('paused')
})

test('ends the E2B class after asking: its sandboxes on E2B go, and so does the student’s way in', async () => {
  await dashboard().endClass()
  expect(await (await cloud.api('GET', '/v2/sandboxes')).json()).toEqual([])
  await ada.page.reload()
  await expect(ada.page.getByRole('heading', { name: 'Open the IDE with its link' })).toBeVisible({
    timeout: 20_000,
  })
})
