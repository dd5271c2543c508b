import puppeteer, { type ElementHandle, type Frame, type Page } from 'puppeteer-core'
import type { EngineBrowser, EnginePage } from './enginePage'

/** Debian's Firefox ESR, driven over WebDriver BiDi by Puppeteer (Playwright cannot drive stock Firefox). */
export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'

const puppeteerKeys = {
  Enter: 'Enter',
  F2: 'F2',
  Delete: 'Delete',
  End: 'End',
  s: 's',
  Space: ' ',
} as const

/** An EnginePage over a Puppeteer page or frame. */
function puppeteerPage(target: Page | Frame): EnginePage {
  const page = 'keyboard' in target ? target : target.page()
  return {
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    evaluate: (fn, ...args) => target.evaluate(fn, ...args),
    waitUntil: async (fn, args, timeoutMs) =>
      void (await target.waitForFunction(fn, { timeout: timeoutMs }, ...args)),
    click: async (find, ...args) => {
      const handle = (await target.evaluateHandle(find, ...args)) as ElementHandle<Element>
      await handle.click()
    },
    keys: (text) => page.keyboard.type(text),
    press: async (key, { control = false } = {}) => {
      if (control) await page.keyboard.down('Control')
      await page.keyboard.press(puppeteerKeys[key])
      if (control) await page.keyboard.up('Control')
    },
    frame: async (selector) => {
      const frame = await (await target.waitForSelector(selector))?.contentFrame()
      if (!frame) throw new Error(`no frame at ${selector}`)
      return puppeteerPage(frame)
    },
    screenshot: async (path) => void (await page.screenshot({ path })),
  }
}

/** Headless Firefox ESR; each page in a browser context of its own, as a fresh profile. */
export async function launchFirefox(): Promise<EngineBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    protocol: 'webDriverBiDi',
    // Nothing beyond loopback on these machines: no update checks, telemetry or captive portal probes.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
    },
  })
  return {
    newPage: async () => {
      const page = await (await browser.createBrowserContext()).newPage()
      await page.setViewport({ width: 1280, height: 800 })
      return puppeteerPage(page)
    },
    close: () => browser.close(),
  }
}
