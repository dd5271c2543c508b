import { SignInPage } from './pages/SignInPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()

test('the printed address opens the IDE and leaves the address bar; a reload and a second tab stay signed in', async ({
  page,
  context,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  expect(page.url()).toBe(`${stack.url}/`)
  await wb.run('echo signed-in', 'signed-in')

  await page.reload()
  await expect(wb.state).toHaveText('Running', { timeout: 20_000 })

  const second = new WorkbenchPage(await context.newPage())
  await second.goto(`${stack.url}/`)
  await second.run('echo second-tab', 'second-tab')
  // The cookie is HttpOnly: the page's script never sees it.
  expect(await page.evaluate(() => document.cookie)).toBe('')
})

test('without the link, the IDE says where it is and takes it pasted; a wrong one is refused', async ({
  page,
}) => {
  await page.goto(`${stack.url}/sandbox`)
  const signIn = page.getByRole('main', { name: 'Open the IDE with its link' })
  await expect(signIn).toContainText('npm run ide-link')
  // The page says all there is to say to a browser that never signed in: no second paragraph saying it again.
  await expect(signIn).not.toContainText('this browser is not signed in')
  const field = signIn.getByLabel('IDE link or token')
  await field.fill(`${stack.url}/#token=${'x'.repeat(43)}`)
  await signIn.getByRole('button', { name: 'Sign in' }).click()
  await expect(signIn.getByRole('alert')).toContainText("this link's token is not the IDE's")
  await field.fill(stack.link())
  await signIn.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('table', { name: 'Local sandboxes' })).toBeVisible()
})

test('a browser whose sign-in stopped working is told why, its commands shown as code', async ({
  page,
  context,
}) => {
  await new WorkbenchPage(page).goto(stack.link())
  // Half of the sign-in gone (the cookie), as after a rotation or a cleared cookie jar.
  await context.clearCookies()
  await page.reload()
  const signIn = new SignInPage(page).main
  await expect(signIn).toContainText("this browser's sign-in is not valid")
  await expect(signIn.locator('code', { hasText: /^npm run ide-link$/ })).toHaveCount(2)
  expect(await signIn.textContent()).not.toContain('`')
})

test('an old link after a rotation shows the sign-in page, not the IDE', async ({ page }) => {
  await page.goto(`${stack.url}/sandbox#token=${'y'.repeat(43)}`)
  await expect(page.getByRole('main', { name: 'Open the IDE with its link' })).toContainText(
    "this link's token is not the IDE's",
  )
  expect(page.url()).toBe(`${stack.url}/sandbox`)
})

test("a page on another origin cannot use the IDE's API, even with the browser signed in", async ({
  page,
}) => {
  await new WorkbenchPage(page).goto(stack.link())
  // A page of another site on this machine, in the same browser: its requests carry the
  // cookie only where SameSite allows, never the page key, and its origin is not the IDE's.
  const evil = `http://evil.localhost:${stack.port}/evil.html`
  await page.route(evil, (route) => route.fulfill({ contentType: 'text/html', body: '<title>evil</title>' }))
  await page.goto(evil)
  const answers = await page.evaluate(async (ide) => {
    const tries: Promise<string>[] = [
      fetch(`${ide}/ide/api/sandboxes`, { credentials: 'include', headers: { 'X-Sandbox-IDE': '1' } }).then(
        (r) => String(r.status),
        () => 'blocked',
      ),
      fetch(`${ide}/ide/api/sandboxes`, {
        method: 'POST',
        credentials: 'include',
        mode: 'no-cors',
        body: '{}',
      }).then(
        (r) => r.type,
        () => 'blocked',
      ),
    ]
    return Promise.all(tries)
  }, stack.url)
  // The first is refused by CORS (no answer can be read). The second is blocked by the browser or
  // opaque; if it reached the server at all, it had no page key and created nothing.
  expect(answers[0]).toBe('blocked')
  expect(['blocked', 'opaque']).toContain(answers[1])
  const list = (await (await stack.api('GET', '/v2/sandboxes')).json()) as unknown[]
  expect(list).toHaveLength(1)
})
