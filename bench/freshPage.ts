import type { Browser, Page } from '@playwright/test'

/**
 * A page in a browser context of its own (a fresh profile: its own tab id, so its own language
 * servers, and nothing of another page's in memory), 1280x800, whose crashes and errors are
 * printed under `bench`'s name.
 */
export async function freshPage(browser: Browser, bench: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  // tsx names functions with an __name() helper; code sent to page.evaluate runs without it.
  await page.addInitScript('globalThis.__name = (f) => f')
  page.on('crash', () => console.error(`${bench} bench: the page crashed`))
  page.on('pageerror', (e) => console.error(`${bench} bench: page error`, e.message))
  return page
}
