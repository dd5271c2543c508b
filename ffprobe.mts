import puppeteer from 'puppeteer-core'
import { LocalStack, freePort } from './e2e/stack'
const stack = new LocalStack(await freePort())
await stack.start()
const t0 = performance.now()
const browser = await puppeteer.launch({
  browser: 'firefox',
  executablePath: '/usr/bin/firefox-esr',
  headless: true,
  protocol: 'webDriverBiDi',
  extraPrefsFirefox: { 'network.dns.localDomains': '' },
})
console.log('launched', (performance.now() - t0).toFixed(0), await browser.version())
const page = await browser.newPage()
page.on('console', (m) => console.log('console:', m.text()))
await page.goto(stack.link())
await page.waitForSelector('[data-testid="sandbox-state"]')
await page.waitForFunction(() => document.querySelector('[data-testid="sandbox-state"]')?.textContent === 'Running', { timeout: 20000 })
console.log('running', (performance.now() - t0).toFixed(0))
await page.waitForFunction(() => (document.querySelector('[data-testid="terminal-text"]')?.textContent ?? '').includes('$'), { timeout: 20000 })
await page.focus('.xterm-helper-textarea')
await page.keyboard.type('echo hi-$((6*7))\n')
await page.waitForFunction(() => (document.querySelector('[data-testid="terminal-text"]')?.textContent ?? '').includes('hi-42'), { timeout: 10000 })
console.log('echo ok', (performance.now() - t0).toFixed(0))
await browser.close()
await stack.dispose()
