// The IDE's terminal against wetty, the nearest open web terminal (xterm + socket.io + node-pty,
// a local shell: no sandbox, no router), measured the same way in the same run and the same
// browser: from the keydown to the typed character in the page's DOM, and a 32 MiB flood from
// Enter to its last line in the DOM. Each page is its real self (the IDE's built app at
// /sandbox/{id}, wetty's own page); the probe only watches the DOM. Both draw with xterm's DOM
// renderer: the IDE leaves Chromium's software WebGL here for it, and wetty uses it on phones.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { freePort } from '../../e2e/localStack'
import { ideLink } from '../../server/platform/access/ideLink'
import type { TestPlatform } from '../../server/platform/testing/platformFixture'
import { startDelayingProxy } from '../../server/testing/delayingProxy'
import { type BareChromium, type BarePage, launchBareChromium } from '../bareChromium'
import { cpuSecondsOf, findInTree, treeCpuSeconds } from '../processCpu'
import { type Figure, median, percentile, ratioInterval } from '../table'
import { idleCost } from './idleCost'

const wettyBin = join(import.meta.dirname, '..', '..', '.bench-peers', 'node_modules', '.bin', 'wetty')
/** Keys typed in each page: the p95 is the 40th slowest, steadier than 400's 20th on a noisy machine. */
const keysPerPage = 800
/** The slow link: this much is added each way, by a proxy in front of each (a distant sandbox). */
const slowLinkOneWayMs = 40
const slowLinkKeys = 60
/** Typing alternates between the pages this often, so a noisy moment of a shared machine falls on both. */
const rounds = 16
/** Neither page is typed into for this long after each round (a typist's pause between bursts). */
const pauseBetweenRoundsMs = 1000
/** Floods are short and noisy: a few in each of the first four rounds, each page's right after the other's. */
const floodRounds = 4
const floodsPerRound = 3
const floodBytes = 32 * 1024 * 1024
/** The flood's command; its end marker (`peer-end-42-{n}`) is made by the shell, so the command line never shows it. */
const floodCommand = (n: number) =>
  ` yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${floodBytes}; echo; echo peer-end-$((6*7))-${n}`
let floodsSoFar = 0

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Installed into a page: the time from the last keydown to a text appearing in the terminal's
 * rows. Plain JavaScript in a string: the bench's own functions, as tsx compiles them, call a
 * helper the page does not have.
 */
const probeScript = `(() => {
  let keyAt = 0
  addEventListener('keydown', () => { keyAt = performance.now() }, true)
  const rowsText = () => (document.querySelector('.xterm-rows')?.textContent ?? '').replace(/\u00a0/g, ' ')
  window.peerProbe = {
    focus() { document.querySelector('.xterm-helper-textarea')?.focus() },
    shows(text) { return rowsText().includes(text) },
    prompted() { return /[$#] *$/.test(rowsText().trimEnd() + ' ') },
    text() { return rowsText() },
    arm(text, ms) {
      window.peerDone = new Promise((resolve, reject) => {
        const observer = new MutationObserver(() => {
          if (!rowsText().includes(text)) return
          observer.disconnect()
          clearTimeout(timer)
          resolve(performance.now() - keyAt)
        })
        observer.observe(document.body, { childList: true, subtree: true, characterData: true })
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error(text.slice(0, 40) + ' not shown within ' + ms + ' ms'))
        }, ms)
      })
      window.peerDone.catch(() => {})
    },
  }
})()`

interface Probe {
  focus(): void
  prompted(): boolean
  text(): string
  shows(text: string): boolean
  arm(text: string, ms: number): void
}
declare global {
  interface Window {
    peerProbe: Probe
    peerDone: Promise<number>
  }
}

async function waitShown(page: BarePage, text: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms
  while (!(await page.evaluate((t) => window.peerProbe.shows(t), text))) {
    if (Date.now() > until) throw new Error(`${text} not shown within ${ms} ms`)
    await sleep(50)
  }
}

/**
 * A page as a user's browser runs it, not as one under automation: headless Chromium says
 * `navigator.webdriver`, and the IDE then keeps a hidden text copy of each terminal for its tests
 * (TerminalTextMirror), work its users' pages never do.
 */
const asAUsersBrowser = `Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false })`

/**
 * Opens `url` and waits until its terminal shows a prompt, probe installed and keyboard in it.
 * `userAgent` replaces the browser's for this page.
 */
async function openTerminalPage(
  browser: BareChromium,
  url: string,
  { userAgent, beforeLoad }: { userAgent?: string; beforeLoad?: string } = {},
): Promise<BarePage> {
  const page = await browser.newPage('about:blank')
  if (userAgent) await page.cdp.Emulation.setUserAgentOverride({ userAgent })
  await page.cdp.Page.addScriptToEvaluateOnNewDocument({ source: asAUsersBrowser })
  if (beforeLoad) await page.cdp.Page.addScriptToEvaluateOnNewDocument({ source: beforeLoad })
  const loaded = page.cdp.Page.loadEventFired()
  await page.cdp.Page.navigate({ url })
  await loaded
  await page.cdp.Runtime.evaluate({ expression: probeScript })
  // A prompt: `$`, or `#` for root (wetty's shell is this machine's user).
  const until = Date.now() + 30_000
  while (!(await page.evaluate(() => window.peerProbe.prompted()))) {
    if (Date.now() > until)
      throw new Error(
        `no prompt within 30 s at ${url}: ${await page.evaluate(() => window.peerProbe.text())}`,
      )
    await sleep(100)
  }
  await page.evaluate(() => window.peerProbe.focus())
  return page
}

/** Keydown to the typed letter in the DOM, for `keys` letters typed one at a time at the prompt. */
async function keysToGlyphs(page: BarePage, keys: number): Promise<number[]> {
  const samples: number[] = []
  let typed = ''
  for (let i = -10; i < keys; i++) {
    if (typed.length === 0 || typed.length >= 40) {
      // A fresh line (Ctrl-U) starting with a marker no other text on the screen has; not timed.
      await page.press('Control+u')
      await sleep(100)
      await page.cdp.Input.insertText({ text: 'qzx' })
      typed = 'qzx'
      await waitShown(page, typed)
    }
    const key = 'abcdefghijklmnoprstuvwy'[(i + 23) % 23] as string
    typed += key
    await page.evaluate((t) => window.peerProbe.arm(t, 10_000), typed)
    await page.press(key)
    const ms = await page.evaluate(() => window.peerDone)
    if (i >= 0) samples.push(ms)
    // A pause of a random part of a frame, so key presses do not lock to the frame clock.
    await sleep(Math.random() * 17)
  }
  await page.press('Control+u')
  return samples
}

/** CPU time (s) used so far by each part of a page's stack (its server, its shell, the browser). */
type CpuMeter = () => Promise<Record<string, number>>

interface Flood {
  /** Enter to its last line in the DOM, in MB/s. */
  rate: number
  /** CPU time it cost each part of the stack, in seconds. */
  cpu: Record<string, number>
}

async function flood(page: BarePage, cpu: CpuMeter): Promise<Flood> {
  const n = ++floodsSoFar
  await page.press('Control+u')
  await page.cdp.Input.insertText({ text: floodCommand(n) })
  await waitShown(page, `peer-end-$((6*7))-${n}`)
  await page.evaluate((end) => window.peerProbe.arm(end, 180_000), `peer-end-42-${n}`)
  const before = await cpu()
  await page.press('Enter')
  const ms = await page.evaluate(() => window.peerDone)
  const after = await cpu()
  await sleep(300)
  await page.press('Control+u')
  return {
    rate: floodBytes / 1e6 / (ms / 1000),
    cpu: Object.fromEntries(Object.entries(after).map(([part, s]) => [part, s - (before[part] ?? 0)])),
  }
}

/** wetty on a free loopback port, running a login shell of this machine. */
async function startWetty(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  if (!existsSync(wettyBin)) throw new Error('wetty is not installed: run `npm run bench` (it installs it)')
  const port = await freePort()
  const child: ChildProcess = spawn(
    wettyBin,
    ['--host', '127.0.0.1', '--port', String(port), '--command', 'bash'],
    {
      stdio: 'ignore',
      detached: true,
    },
  )
  const url = `http://127.0.0.1:${port}/`
  for (let i = 0; ; i++) {
    if ((await fetch(url).catch(() => undefined))?.ok) break
    if (i > 100) throw new Error('wetty did not answer within 10 s')
    await sleep(100)
  }
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      // Its shells are its children: the group goes together.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/**
 * Keydown to glyph with 40 ms added each way in front of both (a proxy each): wetty shows a key
 * once the round trip is over; the IDE, with predictive echo on, draws it at once.
 */
async function overSlowLink(
  browser: BareChromium,
  stack: TestPlatform,
  sandboxId: string,
  wettyUrl: string,
  phone: string,
): Promise<Figure[]> {
  const ideProxy = await startDelayingProxy(stack.platform.port, slowLinkOneWayMs)
  const wettyProxy = await startDelayingProxy(Number(new URL(wettyUrl).port), slowLinkOneWayMs)
  try {
    const origin = `http://127.0.0.1:${ideProxy.port}`
    const always = `localStorage.setItem('sandbox-ide:terminal-settings', '{"state":{"predictiveEcho":"always"},"version":0}')`
    const ide = await openTerminalPage(
      browser,
      ideLink(origin, stack.platform.ideToken.current(), `/sandbox/${sandboxId}`),
      { beforeLoad: always },
    )
    const peer = await openTerminalPage(browser, `http://127.0.0.1:${wettyProxy.port}/`, { userAgent: phone })
    const predicted = await keysToGlyphs(ide, slowLinkKeys)
    const unpredicted = await keysToGlyphs(peer, slowLinkKeys)
    await Promise.all([ide.close(), peer.close()])
    const link = `${slowLinkOneWayMs} ms added each way`
    return [
      {
        name: 'slow link: keydown to glyph, p50 (IDE, predictive echo)',
        median: percentile(predicted, 50),
        unit: 'ms',
        runs: predicted.length,
        note: `${link}; goal under 16 ms (a frame); p95 ${percentile(predicted, 95).toFixed(1)} ms`,
      },
      {
        name: '  same, p50 (wetty 3.2.0, no prediction)',
        median: percentile(unpredicted, 50),
        unit: 'ms',
        runs: unpredicted.length,
        note: `p95 ${percentile(unpredicted, 95).toFixed(1)} ms`,
      },
    ]
  } finally {
    await Promise.all([ideProxy.close(), wettyProxy.close()])
  }
}

/** The figures, with the IDE on `stack` (its built app) and wetty beside it. */
export async function againstWetty(stack: TestPlatform, sandboxId: string): Promise<Figure[]> {
  const wetty = await startWetty()
  const browser = await launchBareChromium()
  try {
    const ideUrl = ideLink(stack.platform.url, stack.platform.ideToken.current(), `/sandbox/${sandboxId}`)
    const ide = await openTerminalPage(browser, ideUrl)
    // wetty draws with WebGL unless the browser says it is a phone, and nothing else changes.
    const { userAgent } = await ide.cdp.Browser.getVersion()
    const phone = `${userAgent} Android`
    const peer = await openTerminalPage(browser, wetty.url, { userAgent: phone })
    // The IDE's serving side is its sandbox's processes (runtime, shell, flood) and the platform
    // (the router, in this process); wetty's is its server and the shells below it.
    const sandboxPid = stack.platform.manager.launchedPid(sandboxId)
    if (sandboxPid === undefined) throw new Error(`sandbox ${sandboxId} has no process`)
    // Its runtime is the Node process inside (bubblewrap's own command line names it too).
    const runtimePid = await findInTree(sandboxPid, ([program]) => basename(program ?? '') === 'node')
    if (runtimePid === undefined) throw new Error(`sandbox ${sandboxId} has no runtime process`)
    const ideCpu: CpuMeter = async () => {
      const runtime = cpuSecondsOf(runtimePid)
      return {
        runtime,
        'shell and flood': (await treeCpuSeconds(sandboxPid)) - runtime,
        platform: cpuSecondsOf(process.pid),
        browser: await treeCpuSeconds(browser.pid),
      }
    }
    const wettyCpu: CpuMeter = async () => {
      const server = cpuSecondsOf(wetty.pid)
      return {
        server,
        'shell and flood': (await treeCpuSeconds(wetty.pid)) - server,
        browser: await treeCpuSeconds(browser.pid),
      }
    }
    const echo = { ide: [] as number[], wetty: [] as number[] }
    const floods = { ide: [] as Flood[], wetty: [] as Flood[] }
    // A first flood each, not counted: it fills the scrollback (1,000 lines in both, each's default),
    // which later floods reuse, and warms both pages' code.
    await flood(ide, ideCpu)
    await flood(peer, wettyCpu)
    // Rounds alternate, so a noisy moment of a shared machine falls on both. Each ends in a pause
    // of both pages, as a typist pauses between bursts: the IDE's background work (its ports and
    // process list), which waits for a pause in typing, then falls there, not on wetty's round.
    for (let round = 0; round < rounds; round++) {
      echo.ide.push(...(await keysToGlyphs(ide, keysPerPage / rounds)))
      await sleep(pauseBetweenRoundsMs)
      echo.wetty.push(...(await keysToGlyphs(peer, keysPerPage / rounds)))
      await sleep(pauseBetweenRoundsMs)
      for (let f = 0; f < (round < floodRounds ? floodsPerRound : 0); f++) {
        floods.ide.push(await flood(ide, ideCpu))
        floods.wetty.push(await flood(peer, wettyCpu))
      }
    }
    const rates = { ide: floods.ide.map((f) => f.rate), wetty: floods.wetty.map((f) => f.rate) }
    const cpuNote = (side: Flood[]) =>
      `CPU per flood: ${Object.keys(side[0]?.cpu ?? {})
        .map((part) => `${part} ${median(side.map((f) => f.cpu[part] ?? 0)).toFixed(2)} s`)
        .join(', ')}`
    /** The ratio of the IDE's statistic to wetty's, and how sure it is (see `ratioInterval`). */
    const ratio = (ide: number[], peer: number[], stat: (samples: number[]) => number) => {
      const [low, high] = ratioInterval(ide, peer, stat)
      return `ratio to wetty ${(stat(ide) / stat(peer)).toFixed(2)} (90% interval ${low.toFixed(2)}–${high.toFixed(2)})`
    }
    const p50 = (samples: number[]) => percentile(samples, 50)
    const p95 = (samples: number[]) => percentile(samples, 95)
    const isolation = `sandbox through the router, against wetty's local bash`
    return [
      {
        name: 'IDE vs wetty: keydown to glyph in DOM, p50 (IDE)',
        median: p50(echo.ide),
        unit: 'ms',
        runs: echo.ide.length,
        note: `${ratio(echo.ide, echo.wetty, p50)}; ${isolation}`,
      },
      { name: '  same, p50 (wetty 3.2.0)', median: p50(echo.wetty), unit: 'ms', runs: echo.wetty.length },
      {
        name: 'IDE vs wetty: keydown to glyph in DOM, p95 (IDE)',
        median: p95(echo.ide),
        unit: 'ms',
        runs: echo.ide.length,
        note: ratio(echo.ide, echo.wetty, p95),
      },
      { name: '  same, p95 (wetty 3.2.0)', median: p95(echo.wetty), unit: 'ms', runs: echo.wetty.length },
      {
        name: 'IDE vs wetty: 32 MiB flood, Enter to last line in DOM (IDE)',
        median: median(rates.ide),
        unit: 'MB/s',
        runs: rates.ide.length,
        note: `${ratio(rates.ide, rates.wetty, median)} (higher is better); median of the ${rates.ide.length} pairs' ratios ${median(rates.ide.map((rate, i) => rate / (rates.wetty[i] as number))).toFixed(2)}; ${cpuNote(floods.ide)}`,
      },
      {
        name: '  same (wetty 3.2.0)',
        median: median(rates.wetty),
        unit: 'MB/s',
        runs: rates.wetty.length,
        note: cpuNote(floods.wetty),
      },
      ...(await overSlowLink(browser, stack, sandboxId, wetty.url, phone)),
      // Both pages still open, nobody typing.
      ...(await idleCost()),
    ]
  } finally {
    await browser.close()
    await wetty.stop()
  }
}
