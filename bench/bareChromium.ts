// Debian's Chromium driven over the DevTools protocol with nothing else attached, for figures
// that time network requests. Playwright enables the Network domain on every page it drives, so
// each request costs the page, the browser process and the driving process a handful of DevTools
// events: here a fetch's round trip took 5–6.5 ms under Playwright and 3.7–3.8 ms without it
// (the same page, alternating). A keystroke sent by SendInput is a request, so an echo measured
// through Playwright is partly Playwright's. The tests keep Playwright; only these figures need this.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import CDP from 'chrome-remote-interface'
import { chromiumLaunchOptions, chromiumPath } from '../e2e/chromium'

/** One tab, with the few things a bench does in it. */
export interface BarePage {
  /** Runs `fn(arg)` in the page and resolves with its (awaited, JSON-able) result. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>
  /** A key as a user presses it: `a`, `Enter`, `Control+C`. */
  press(keys: string): Promise<void>
  /** The tab's DevTools session, for anything else. */
  cdp: CDP.Client
  close(): Promise<void>
}

export interface BareChromium {
  /** The browser's own process, parent of its renderers and helpers. */
  pid: number
  /** A new tab at `url`, loaded, 1280×800, focused. */
  newPage(url: string, options?: { ignoreHTTPSErrors?: boolean }): Promise<BarePage>
  close(): Promise<void>
}

/**
 * What a driver such as Playwright passes so that a headless tab runs as a visible foreground one:
 * without these its timers are throttled, its renderer deprioritised, its IPC rate-limited, and
 * the figures measure that (xterm's own limit fell from about 50 to 34 MB/s).
 */
const asAForegroundTab = [
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-ipc-flooding-protection',
  '--disable-hang-monitor',
  '--disable-features=PaintHolding',
  '--disable-field-trial-config',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--no-default-browser-check',
  '--mute-audio',
  '--hide-scrollbars',
]

/** Starts headless Chromium with the tests' flags (and `extraArgs`) and a fresh profile. */
export async function launchBareChromium(extraArgs: string[] = []): Promise<BareChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-chromium-'))
  const browser: ChildProcess = spawn(
    chromiumPath,
    [
      ...(chromiumLaunchOptions().args ?? []),
      ...asAForegroundTab,
      ...extraArgs,
      '--headless',
      '--remote-debugging-port=0',
      '--disable-breakpad',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => browser.once('exit', () => resolve()))
  let session: CDP.Client | undefined
  const close = async () => {
    // Asked over the protocol, as a driver does (it does not always end on SIGTERM); killed if it lingers.
    await session?.Browser.close().catch(() => {})
    const kill = setTimeout(() => browser.kill('SIGKILL'), 5000)
    if (!session) browser.kill('SIGKILL')
    await exited
    clearTimeout(kill)
    // Its helper processes go a moment after it and may still be writing to the profile.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
  try {
    const port = await devToolsPort(profile, browser)
    const { webSocketDebuggerUrl } = await CDP.Version({ port })
    const opened = await CDP({ target: webSocketDebuggerUrl })
    session = opened
    return {
      pid: browser.pid as number,
      newPage: (url, options) => openPage(opened, port, url, options),
      close,
    }
  } catch (err) {
    await close()
    throw err
  }
}

/** The port Chromium chose, from the file it writes into its profile once it listens. */
async function devToolsPort(profile: string, browser: ChildProcess): Promise<number> {
  const file = join(profile, 'DevToolsActivePort')
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if (browser.exitCode !== null) throw new Error(`chromium exited with ${browser.exitCode}`)
    const port = existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : 0
    if (port > 0) return port
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('chromium did not open its DevTools port within 30 s')
}

async function openPage(
  browser: CDP.Client,
  port: number,
  url: string,
  { ignoreHTTPSErrors = false } = {},
): Promise<BarePage> {
  // A context of its own, as Playwright gives each page: fresh storage and connections of its own,
  // which go with it, so nothing of one page's run carries into the next one's figures.
  const { browserContextId } = await browser.Target.createBrowserContext({})
  const { targetId } = await browser.Target.createTarget({ url: 'about:blank', browserContextId })
  const cdp = await CDP({ port, target: targetId })
  cdp.Runtime.exceptionThrown(({ exceptionDetails }) =>
    console.error(`bench page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`),
  )
  await Promise.all([cdp.Page.enable(), cdp.Runtime.enable()])
  await cdp.Emulation.setDeviceMetricsOverride({
    width: 1280,
    height: 800,
    deviceScaleFactor: 1,
    mobile: false,
  })
  // A headless tab has no window focus of its own; keys go to the focused element only with it.
  await cdp.Emulation.setFocusEmulationEnabled({ enabled: true })
  if (ignoreHTTPSErrors) await cdp.Security.setIgnoreCertificateErrors({ ignore: true })
  const loaded = cdp.Page.loadEventFired()
  const { errorText } = await cdp.Page.navigate({ url })
  if (errorText) throw new Error(`opening ${url}: ${errorText}`)
  await loaded
  const evaluate = async (fn: (arg?: unknown) => unknown, arg?: unknown) => {
    const { result, exceptionDetails } = await cdp.Runtime.evaluate({
      expression: `(${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)})`,
      awaitPromise: true,
      returnByValue: true,
    })
    if (exceptionDetails) {
      throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text)
    }
    return result.value
  }
  return {
    evaluate: evaluate as BarePage['evaluate'],
    press: (keys) => press(cdp, keys),
    cdp,
    close: async () => {
      await cdp.close()
      await browser.Target.disposeBrowserContext({ browserContextId })
    },
  }
}

/** Modifier keys: their bit in the protocol's `modifiers`, and their legacy key code. */
const modifierKeys = {
  Alt: { bit: 1, keyCode: 18 },
  Control: { bit: 2, keyCode: 17 },
  Meta: { bit: 4, keyCode: 91 },
  Shift: { bit: 8, keyCode: 16 },
} as const
type Modifier = keyof typeof modifierKeys
const isModifier = (name: string): name is Modifier => name in modifierKeys

/** What a key sends: its name, its physical key, its legacy key code, and the text it types. */
function keyOf(name: string): { key: string; code: string; windowsVirtualKeyCode: number; text?: string } {
  if (name === 'Enter') return { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }
  if (isModifier(name))
    return { key: name, code: `${name}Left`, windowsVirtualKeyCode: modifierKeys[name].keyCode }
  if (/^[a-zA-Z]$/.test(name)) {
    const upper = name.toUpperCase()
    return { key: name, code: `Key${upper}`, windowsVirtualKeyCode: upper.charCodeAt(0), text: name }
  }
  throw new Error(`bench keys are letters, Enter and modifiers; not ${JSON.stringify(name)}`)
}

/** Presses `keys` (`Control+C`: modifiers held around the last key), as a keyboard would. */
async function press(cdp: CDP.Client, keys: string): Promise<void> {
  const names = keys.split('+')
  const last = names.pop() as string
  const held = names.filter(isModifier)
  if (held.length !== names.length) throw new Error(`only modifiers come before the key in ${keys}`)
  let modifiers = 0
  for (const name of held) {
    modifiers |= modifierKeys[name].bit
    await cdp.Input.dispatchKeyEvent({ type: 'rawKeyDown', modifiers, ...keyOf(name) })
  }
  const { text, ...key } = keyOf(last)
  // With Control, Alt or Meta held a key types nothing: the page reads the combination.
  const types = text !== undefined && (modifiers & ~modifierKeys.Shift.bit) === 0
  await cdp.Input.dispatchKeyEvent({
    type: types ? 'keyDown' : 'rawKeyDown',
    modifiers,
    ...key,
    ...(types ? { text } : {}),
  })
  await cdp.Input.dispatchKeyEvent({ type: 'keyUp', modifiers, ...key })
  for (const name of held.reverse()) {
    modifiers &= ~modifierKeys[name].bit
    await cdp.Input.dispatchKeyEvent({ type: 'keyUp', modifiers, ...keyOf(name) })
  }
}
