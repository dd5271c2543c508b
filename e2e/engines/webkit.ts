import { type ChildProcess, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { Builder, Key, type WebDriver, type WebElement } from 'selenium-webdriver'
import { within } from '../../src/common/within'
import { freePort } from '../localStack'
import type { EngineBrowser, EnginePage, PageFunction } from './enginePage'

/** Debian's WebKitGTK: its WebDriver (webkit2gtk-driver) and the MiniBrowser it drives. */
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
export const miniBrowserPath =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

const seleniumKeys = {
  Enter: Key.ENTER,
  F2: Key.F2,
  Delete: Key.DELETE,
  End: Key.END,
  s: 's',
  Space: Key.SPACE,
} as const

/** A page function as WebDriver's Execute Script takes it: a body that gets `arguments`. */
const script = (fn: PageFunction) => `return (${fn.toString()}).apply(null, arguments)`

/** An EnginePage over a WebDriver session, in the browsing context `enter` switches to. */
function webDriverPage(web: WebDriver, enter: () => Promise<void>): EnginePage {
  const run = async <T>(fn: PageFunction<T>, args: unknown[]) => {
    await enter()
    return (await web.executeScript(script(fn), ...args)) as T
  }
  return {
    goto: (url) => web.get(url),
    reload: () => web.navigate().refresh(),
    evaluate: (fn, ...args) => run(fn, args),
    waitUntil: async (fn, args, timeoutMs) => {
      await web.wait(async () => !!(await run(fn, args)), timeoutMs, `waited ${timeoutMs} ms in vain`)
    },
    click: async (find, ...args) => {
      const element = (await run(find, args)) as unknown as WebElement | null
      if (!element) throw new Error('nothing to click')
      await element.click()
    },
    keys: async (text) => {
      await enter()
      // A newline is the Enter key, as a user presses it (a bare "\n" submits no form).
      const focused = await web.switchTo().activeElement()
      await focused.sendKeys(text.replaceAll('\n', Key.ENTER))
    },
    press: async (key, { control = false } = {}) => {
      await enter()
      const actions = web.actions()
      if (control) actions.keyDown(Key.CONTROL)
      actions.sendKeys(seleniumKeys[key])
      if (control) actions.keyUp(Key.CONTROL)
      await actions.perform()
    },
    frame: async (selector) => {
      // An element a script returns arrives as a WebElement.
      const element = (await run(
        (s: string) => document.querySelector(s),
        [selector],
      )) as unknown as WebElement | null
      if (!element) throw new Error(`no frame at ${selector}`)
      return webDriverPage(web, async () => {
        await enter()
        await web.switchTo().frame(element)
      })
    },
    screenshot: async (path) => {
      await web.switchTo().defaultContent()
      writeFileSync(path, await web.takeScreenshot(), 'base64')
    },
  }
}

/** `work`, or an error naming it once it took longer than `ms`. */
const bounded = <T>(work: Promise<T>, ms: number, what: string) =>
  within(work, ms, () => new Error(`${what} took more than ${ms / 1000} s`))

/**
 * WebKitGTK's MiniBrowser under Xvfb (it draws in a real window), driven by WebKitWebDriver
 * through selenium-webdriver; each page is a session of its own, a fresh profile, and ends the
 * one before (the driver holds one at a time).
 */
export async function launchWebKit(): Promise<EngineBrowser> {
  const display = `:${90 + Math.floor(Math.random() * 9)}${Math.floor(Math.random() * 10)}`
  const children: ChildProcess[] = []
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: 'ignore',
  })
  children.push(xvfb)
  /** The driver and its port; started again when a session will not come (see newPage). */
  let driver = { port: 0, process: undefined as ChildProcess | undefined }
  const startDriver = async () => {
    driver.process?.kill()
    const port = await freePort()
    const child = spawn(webkitDriverPath, [`--port=${port}`], {
      stdio: 'ignore',
      env: { ...process.env, DISPLAY: display },
    })
    children.push(child)
    driver = { port, process: child }
  }
  await startDriver()
  const sessions: WebDriver[] = []
  const start = async () => {
    // The driver listens a moment after it starts.
    for (let i = 0; ; i++) {
      try {
        return await new Builder()
          .usingServer(`http://127.0.0.1:${driver.port}`)
          .withCapabilities({
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] },
          })
          .build()
      } catch (err) {
        if (i > 50) throw err
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }
  return {
    newPage: async () => {
      // Now and then (about one run in three here) a new session never comes: the driver and its
      // MiniBrowser are then started again, once, instead of the test waiting out its hook.
      for (let attempt = 1; ; attempt++) {
        try {
          // WebKitWebDriver runs one session at a time: the last test's goes first.
          for (const old of sessions.splice(0)) await bounded(old.quit(), 10_000, 'quitting').catch(() => {})
          const web = await bounded(start(), 30_000, 'a new MiniBrowser session')
          sessions.push(web)
          await bounded(web.manage().window().setRect({ width: 1280, height: 800 }), 10_000, 'sizing')
          return webDriverPage(web, () => web.switchTo().defaultContent())
        } catch (err) {
          if (attempt === 2) throw err
          sessions.splice(0)
          await startDriver()
        }
      }
    },
    close: async () => {
      for (const web of sessions) await web.quit().catch(() => {})
      for (const child of children) child.kill()
    },
  }
}
