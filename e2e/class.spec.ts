import { networkInterfaces } from 'node:os'
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { chromiumLaunchOptions } from './chromium'
import { ExplorerPage } from './pages/ExplorerPage'
import { SignInPage } from './pages/SignInPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { LocalStack } from './stack'

// A class over the network: the stack as `npm start -- --host 0.0.0.0 --domain class.test` runs
// it, and students' browsers that reach it by that name (the IDE at class.test, each sandbox at
// {port}-{id}.class.test), as a wildcard DNS record would point them, through this machine's
// non-loopback address: their requests come from the network, not from loopback.

const domain = 'class.test'
const address = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === 'IPv4' && !a.internal)?.address

test.skip(!address, 'this machine has no non-loopback IPv4 address for class.test to resolve to')

const launch = chromiumLaunchOptions()
test.use({
  launchOptions: {
    ...launch,
    args: [
      ...(launch.args ?? []),
      `--host-resolver-rules=MAP ${domain} ${address ?? '127.0.0.1'}, MAP *.${domain} ${address ?? '127.0.0.1'}`,
    ],
  },
})

test.describe.configure({ mode: 'serial' })

const stack = new LocalStack(undefined, ['--host', '0.0.0.0', '--domain', domain])
/** Where students' browsers open the IDE. */
const origin = () => `http://${domain}:${stack.port}`

/** A student's sandbox and the join link the teacher made for it. */
interface Student {
  name: string
  sandboxId: string
  /** The sandbox's runtime access token: what a student of another sandbox must never get. */
  accessToken: string
  link: { id: string; token: string; sandboxId: string; student: string; expiresAt: string }
}

/** The IDE API as the teacher's tools call it: the IDE's token as a Bearer, from this machine. */
const asTool = (method: string, path: string, body?: unknown) => stack.ideApi(method, path, body)

/** What the teacher does for one student: a sandbox of the class, and a join link to it. */
async function enrol(name: string): Promise<Student> {
  const created = await stack.api('POST', '/v2/sandboxes', {
    timeout: 1800,
    autoPause: true,
    metadata: { class: 'monday', student: name },
  })
  expect(created.status).toBe(201)
  const { sandboxID: sandboxId } = (await created.json()) as { sandboxID: string }
  const detail = (await (await stack.api('GET', `/sandboxes/${sandboxId}`)).json()) as {
    envdAccessToken: string
  }
  const issued = await asTool('POST', `/sandboxes/${sandboxId}/join-links`, {})
  expect(issued.status).toBe(201)
  const link = (await issued.json()) as Student['link']
  expect(link).toMatchObject({ sandboxId, student: name })
  return { name, sandboxId, accessToken: detail.envdAccessToken, link }
}

/** The address a student is given: the IDE's join page, the link's token after the #. */
const joinAddress = (student: Student) => `${origin()}/join#token=${student.link.token}`

/**
 * A browser of its own (cookies and storage), as a student's laptop. What its pages throw is kept
 * apart, and with the failed requests and console errors, attached to a failing test's report.
 */
async function laptop(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    thrown.push(`${page.url()}: ${err.message}`)
    pageReports.push(`${page.url()}: ${err.stack ?? err.message}`)
  })
  page.on('console', (msg) => {
    // A failed resource is reported below with its address.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
      pageReports.push(`${page.url()}: console: ${msg.text()}`)
  })
  page.on('requestfailed', (req) =>
    pageReports.push(`${page.url()}: ${req.method()} ${req.url()} failed: ${req.failure()?.errorText}`),
  )
  page.on('response', (res) => {
    if (res.status() >= 400)
      pageReports.push(`${page.url()}: ${res.request().method()} ${res.url()}: ${res.status()}`)
  })
  contexts.push(context)
  return { context, page }
}

const contexts: BrowserContext[] = []
const pageReports: string[] = []
/** Uncaught errors of the students' pages. */
const thrown: string[] = []
let ada: Student
let ben: Student
let adaPage: Page
let benPage: Page

test.beforeAll(async () => {
  await stack.start()
  ada = await enrol('ada')
  ben = await enrol('ben')
})

// The students' browsers close before the stack stops, so what they report is theirs alone.
test.afterAll(async () => {
  for (const context of contexts) await context.close()
  await stack.dispose()
})

// What went wrong in the students' pages so far, beside a failure: on http://class.test the page
// is not a secure context (no crypto.randomUUID, no Clipboard API), unlike on loopback.
test.afterEach(async () => {
  const testInfo = test.info()
  if (testInfo.status !== testInfo.expectedStatus && pageReports.length > 0)
    await testInfo.attach('students-pages', { body: pageReports.join('\n'), contentType: 'text/plain' })
})

/**
 * Opens a student's join link in their browser and waits for their sandbox: the page goes on to
 * it, and the link's token is not left in the address bar.
 */
async function join(page: Page, student: Student): Promise<WorkbenchPage> {
  const wb = new WorkbenchPage(page)
  await page.goto(joinAddress(student))
  await expect(wb.state).toHaveText('Running', { timeout: 20_000 })
  expect(page.url()).toBe(`${origin()}/sandbox/${student.sandboxId}`)
  await expect(wb.toolbar).toContainText(student.sandboxId)
  // The picker is not a student's to see: the toolbar has no button to it.
  await expect(wb.toolbar.getByRole('button', { name: 'Commands' })).toBeVisible()
  await expect(wb.toolbar.getByRole('button', { name: 'Sandboxes' })).toHaveCount(0)
  return wb
}

test("ada's join link opens her own sandbox, and the picker's addresses take her back to it", async ({
  browser,
}) => {
  ;({ page: adaPage } = await laptop(browser))
  const wb = await join(adaPage, ada)
  for (const path of ['/', '/sandbox', '/join']) {
    await adaPage.goto(`${origin()}${path}`)
    await expect(adaPage).toHaveURL(`${origin()}/sandbox/${ada.sandboxId}`, { timeout: 20_000 })
    await expect(wb.state).toHaveText('Running', { timeout: 20_000 })
    await expect(wb.toolbar.getByRole('button', { name: 'Sandboxes' })).toHaveCount(0)
  }
})

test("ben's join link opens his own sandbox, in another browser", async ({ browser }) => {
  ;({ page: benPage } = await laptop(browser))
  await join(benPage, ben)
})

test("from ada's page, the IDE API lists no sandboxes or links and gives nothing of ben's", async () => {
  const answers = await adaPage.evaluate(
    async ({ adaId, benId }) => {
      const headers = {
        'X-Sandbox-IDE': '1',
        'X-Sandbox-IDE-Key': localStorage.getItem('sandbox-ide:page-key') ?? '',
      }
      const ask = async (path: string, method = 'GET') => {
        const res = await fetch(path, {
          method,
          headers: method === 'GET' ? headers : { ...headers, 'Content-Type': 'application/json' },
          ...(method === 'GET' ? {} : { body: '{}' }),
        })
        return { path: `${method} ${path}`, status: res.status, body: await res.text() }
      }
      return {
        hasPageKey: headers['X-Sandbox-IDE-Key'] !== '',
        own: await ask(`/ide/api/sandboxes/${adaId}/session`),
        refused: [
          await ask('/ide/api/sandboxes'),
          await ask(`/ide/api/sandboxes/${benId}/session`),
          await ask('/ide/api/join-links'),
          await ask(`/ide/api/sandboxes/${adaId}/join-links`, 'POST'),
        ],
      }
    },
    { adaId: ada.sandboxId, benId: ben.sandboxId },
  )
  // The same request for her own sandbox is answered: the refusals below are of her sign-in.
  expect(answers.hasPageKey).toBe(true)
  expect(answers.own.status).toBe(200)
  expect(JSON.parse(answers.own.body)).toMatchObject({
    sandboxId: ada.sandboxId,
    accessToken: ada.accessToken,
  })
  for (const answer of answers.refused) {
    expect(answer.status, answer.path).toBe(403)
    expect(answer.body, answer.path).not.toContain(ben.accessToken)
    expect(answer.body, answer.path).not.toContain(ben.link.token)
    expect(answer.body, answer.path).not.toContain(ben.sandboxId)
  }
})

test("ada's join link, opened again in another browser, is refused as already used", async ({ browser }) => {
  const { page } = await laptop(browser)
  await page.goto(joinAddress(ada))
  const signIn = new SignInPage(page)
  await expect(signIn.main).toContainText('already used', { timeout: 20_000 })
  expect(page.url()).toBe(`${origin()}/join`)
  await expect(page.getByRole('toolbar', { name: 'Sandbox' })).toHaveCount(0)
  // Ada herself is still in.
  await adaPage.reload()
  await expect(new WorkbenchPage(adaPage).state).toHaveText('Running', { timeout: 20_000 })
})

test("each student's terminal works in their own sandbox: ada's file shows in her explorer, not in ben's", async () => {
  // Nothing the pages did so far may have thrown (the workbench opens its terminals as it loads).
  expect.soft(thrown, "uncaught errors in the students' pages").toEqual([])
  const adaWb = new WorkbenchPage(adaPage)
  const adaFiles = new ExplorerPage(adaPage)
  await expect(adaWb.terminalRows).toContainText('$', { timeout: 20_000 })
  await adaWb.run('echo ada-$((6*7))', 'ada-42')
  await adaWb.run('echo hi > ada-was-here.txt && echo made-$((2+3))', 'made-5')
  await expect(adaFiles.item('ada-was-here.txt')).toBeVisible({ timeout: 15_000 })

  const benWb = new WorkbenchPage(benPage)
  const benFiles = new ExplorerPage(benPage)
  await expect(benWb.terminalRows).toContainText('$', { timeout: 20_000 })
  await benWb.run('echo ben-$((7*6))', 'ben-42')
  await benWb.run('echo hi > ben-was-here.txt && echo made-$((3+4))', 'made-7')
  // His own file shows, so his tree is up to date: ada's is not in it.
  await expect(benFiles.item('ben-was-here.txt')).toBeVisible({ timeout: 15_000 })
  await expect(benFiles.item('ada-was-here.txt')).toHaveCount(0)
  await expect(adaFiles.item('ben-was-here.txt')).toHaveCount(0)
})

test("the teacher revokes ben's link: his page, reloaded, asks him for a new one", async () => {
  const listed = (await (await asTool('GET', '/join-links?class=monday')).json()) as {
    id: string
    student: string
    claimedAt?: string
  }[]
  expect(listed.map((l) => [l.student, typeof l.claimedAt]).sort()).toEqual([
    ['ada', 'string'],
    ['ben', 'string'],
  ])
  expect((await asTool('DELETE', `/join-links/${ben.link.id}`)).status).toBe(204)
  await benPage.reload()
  const signIn = new SignInPage(benPage)
  await expect(signIn.main).toContainText('ask your teacher for a new link', { timeout: 20_000 })
  await expect(benPage.getByRole('toolbar', { name: 'Sandbox' })).toHaveCount(0)
  // Ada's link stands.
  await adaPage.reload()
  await expect(new WorkbenchPage(adaPage).state).toHaveText('Running', { timeout: 20_000 })
})

test("ada's web server opens in her preview and her tabs; ben's browser gets no way to it", async ({
  browser,
}) => {
  const wb = new WorkbenchPage(adaPage)
  await wb.run(
    "mkdir -p ~/site && echo '<h1>Ada builds</h1>' > ~/site/index.html && echo site-ready",
    'site-ready',
  )
  await wb.type('cd ~/site && python3 -m http.server 8000\n')
  const port = adaPage.getByRole('region', { name: 'Ports' }).getByRole('listitem', { name: 'Port 8000' })
  await expect(port).toBeVisible({ timeout: 15_000 })
  const portUrl = `http://8000-${ada.sandboxId}.${domain}:${stack.port}/`
  expect(await port.getByRole('link', { name: 'Open port 8000 in a new tab' }).getAttribute('href')).toBe(
    portUrl,
  )
  await port.getByRole('button', { name: 'Preview' }).click()
  const preview = adaPage.getByRole('region', { name: 'Preview of port 8000' })
  await expect(
    preview.frameLocator('iframe[title="Port 8000"]').getByRole('heading', { name: 'Ada builds' }),
  ).toBeVisible({
    timeout: 15_000,
  })
  // The port's cookie is the stack's: the app's own page never sees it.
  const tab = await adaPage.context().newPage()
  await tab.goto(portUrl)
  await expect(tab.getByRole('heading', { name: 'Ada builds' })).toBeVisible()
  expect(await tab.evaluate(() => document.cookie)).toBe('')
  await tab.close()

  // Ben, who knows her sandbox's address, gets a page that says no, and nothing of hers.
  const benLaptop = await laptop(browser)
  const refused = await benLaptop.page.goto(portUrl)
  expect(refused?.status()).toBe(401)
  await expect(benLaptop.page.getByText('opens for its student and teacher only')).toBeVisible()
  await expect(benLaptop.page.getByRole('heading', { name: 'Ada builds' })).toHaveCount(0)
})

test('a student who has only the machine’s address works in the terminal and the explorer through the IDE’s own origin', async ({
  browser,
}) => {
  const issued = await asTool('POST', `/sandboxes/${ben.sandboxId}/join-links`, {})
  expect(issued.status).toBe(201)
  const { token } = (await issued.json()) as { token: string }
  const { page } = await laptop(browser)
  const bare = `http://${address}:${stack.port}`
  const wb = new WorkbenchPage(page)
  await page.goto(`${bare}/join#token=${token}`)
  await expect(wb.state).toHaveText('Running', { timeout: 20_000 })
  expect(page.url()).toBe(`${bare}/sandbox/${ben.sandboxId}`)
  await expect(wb.terminalRows).toContainText('$', { timeout: 20_000 })
  await wb.run('echo by-address-$((40+2))', 'by-address-42')
  // His file from before, in his explorer: the runtime answers at /.sandbox/{id} on this origin.
  await expect(new ExplorerPage(page).item('ben-was-here.txt')).toBeVisible({ timeout: 15_000 })
})
