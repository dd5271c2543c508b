import { type BrowserContext, test as base, type Page } from '@playwright/test'

export { expect } from '@playwright/test'

/**
 * `test` whose `page` and `context` come from one browser context per worker instead of a new one
 * per test, its pages in one renderer process. A new context (and a new process) compiled the
 * whole IDE and Monaco again: about 5 s of the renderer's CPU a test, on two cores shared by two
 * workers, most of the suite's browser time; reused, about half. The cache is all that is kept:
 * between tests every page is closed and cookies, permissions, routes, the offline switch and
 * every visited origin's storage (IndexedDB, localStorage, caches) are cleared, so each test
 * still starts as a first visit. Playwright's own `reuseContext` clears the cache and keeps the
 * page (and its listeners) instead: the opposite of what is worth keeping. A spec that needs its own context options keeps `@playwright/test`.
 */
export const test = base.extend<object, { workerContext: BrowserContext }>({
  workerContext: [
    async ({ browser }, use) => {
      const context = await browser.newContext()
      // A page of the stacks' site (127.0.0.1) that lives as long as the worker: with
      // --process-per-site (chromium.ts) each test's page then joins its renderer process, whose
      // V8 keeps the IDE's compiled code. Served by Playwright itself; nothing listens on port 1.
      const keeper = await context.newPage()
      await keeper.route(keeperUrl, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>keeper</title>' }),
      )
      await keeper.goto(keeperUrl)
      await use(context)
      await context.close()
    },
    { scope: 'worker' },
  ],
  context: async ({ workerContext }, use) => {
    const visitedOrigins = new Set<string>()
    const track = (page: Page) =>
      page.on('framenavigated', (frame) => {
        const origin = originOf(frame.url())
        if (origin) visitedOrigins.add(origin)
      })
    workerContext.on('page', track)
    await use(workerContext)
    workerContext.off('page', track)
    await forgetTest(workerContext, visitedOrigins)
  },
})

const keeperUrl = 'http://127.0.0.1:1/'

const storageTypes = [
  'cookies',
  'file_systems',
  'indexeddb',
  'local_storage',
  'websql',
  'service_workers',
  'cache_storage',
  'shared_storage',
  'storage_buckets',
].join(',')

/** Everything a test left in the context except the HTTP cache (and the code compiled from it). */
async function forgetTest(context: BrowserContext, origins: Set<string>): Promise<void> {
  for (const page of context.pages()) if (page.url() !== keeperUrl) await page.close().catch(() => {})
  await context.unrouteAll({ behavior: 'ignoreErrors' })
  await context.clearCookies()
  await context.clearPermissions()
  await context.setOffline(false)
  if (origins.size === 0) return
  const page = await context.newPage()
  try {
    const cdp = await context.newCDPSession(page)
    for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes })
    await cdp.detach()
  } finally {
    await page.close()
  }
}

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url)
    return origin.startsWith('http') ? origin : undefined
  } catch {
    return undefined
  }
}
