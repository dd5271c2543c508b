// Terminal figures (the terminals issue): output throughput against xterm's own limit, echo
// latency, Ctrl-C during a flood, and the page's memory with eight full terminals.
//
// Why a bench page and not the IDE at `/`: the figures need the moment xterm has *parsed* bytes
// (its write callbacks), and the IDE's bundle keeps its xterm instances out of reach; the DOM
// shows output only once rendered, a frame later. So `benchPage.ts` builds the IDE's real
// terminal stack from `src/` (SandboxSession, TerminalConnection, OutputWriter, TerminalInstance)
// with Vite, like the IDE, and adds one probe on each terminal's write callbacks. The page is
// served by the platform's own server on its origin (a path in front of its handler), so
// `/ide/api`, the runtime URLs and the stream host shards are exactly what the IDE gets: headless
// Debian Chromium → loopback → router → a bubblewrap sandbox's runtime → a PTY. Chromium is
// driven over bare DevTools (bench/bareChromium.ts), not Playwright, whose per-request events
// would be counted in every keystroke's echo.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { ideLink } from '../../server/platform/access/ideLink'
import type { RunningPlatform } from '../../server/platform/platformServer'
import type { TestPlatform } from '../../server/platform/testing/platformFixture'
import { runtimePort } from '../../server/platform/testing/runtimeBridge'
import { startDelayingProxy } from '../../server/testing/delayingProxy'
import { type BareChromium, type BarePage, launchBareChromium } from '../bareChromium'
import { serveInFront, startBenchPlatform } from '../benchStack'
import { type Figure, median, ratioInterval } from '../table'
import { againstWetty } from './againstWetty'
import { type BaselineServer, startBaselineServer } from './baselineServer'
import { benchPrompt } from './benchPrompt'

const here = import.meta.dirname
const pagePath = '/__bench/terminal/'
const mib = 1024 * 1024

const floodLine = 'the quick brown fox jumps over the lazy dog 0123456789'
const floodBytes = 32 * mib
const floodEnd = 'bench-end-42'
// The marker is computed by the shell, so the echoed command line never contains it.
const floodCommand = ` yes '${floodLine}' | head -c ${floodBytes}; echo; echo bench-end-$((6*7))`

/** A figure's hard time limit: every wait inside it gets what is left, and none gets more. */
class Deadline {
  private readonly at: number
  constructor(
    private readonly what: string,
    private readonly ms: number,
  ) {
    this.at = Date.now() + ms
  }
  left(): number {
    const left = this.at - Date.now()
    if (left <= 0) throw new Error(`${this.what}: over its ${this.ms / 1000} s limit`)
    return left
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number
}

const mbPerSecond = (t: { ms: number; bytes: number }) => t.bytes / 1e6 / (t.ms / 1000)

/** Resident memory of the largest Chromium renderer started by this process, and how many there are. */
function rendererRss(): { bytes: number; renderers: number } {
  const parent = new Map<number, number>()
  const renderers: { pid: number; rss: number }[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8')
      parent.set(Number(name), Number(status.match(/PPid:\s+(\d+)/)?.[1]))
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=renderer'))
        renderers.push({ pid: Number(name), rss: Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) * 1024 })
    } catch {}
  }
  const mine = renderers.filter(({ pid }) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === process.pid) return true
    return false
  })
  return { bytes: Math.max(0, ...mine.map((r) => r.rss)), renderers: mine.length }
}

/** Builds the bench page (the real modules from src/) into `outDir`, with the IDE's Vite. */
async function buildPage(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: here,
    base: pagePath,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  })
}

/** Serves the built page at `pagePath` on the platform's own origin; everything else is the platform's. */
function servePage(platform: RunningPlatform, dir: string): void {
  serveInFront(platform, dir, (url) =>
    url.startsWith(pagePath) ? url.slice(pagePath.length - 1) : undefined,
  )
}

/**
 * A sandbox's runtime through the router and without it (its loopback port, or a byte pipe to
 * its socket when it has a network of its own), and its access token.
 */
async function runtimeTargets(
  platform: RunningPlatform,
  sandboxId: string,
): Promise<[{ router: string; runtime?: string }, string]> {
  const route = platform.manager.route(sandboxId)
  const { protocol } = new URL(platform.url)
  return [
    {
      router: `${protocol}//49983-${sandboxId}.localhost:${platform.port}`,
      // The runtime speaks plain HTTP/1.1 only; over https the page cannot reach it straight.
      ...(route.kind === 'running' && protocol === 'http:'
        ? { runtime: `http://127.0.0.1:${await runtimePort(route.runtime)}` }
        : {}),
    },
    platform.manager.get(sandboxId).envdAccessToken,
  ]
}

/** Runs one figure's measurement; a failure becomes a row saying so, and the other figures go on. */
async function attempt(what: string, measure: () => Promise<Figure[]>): Promise<Figure[]> {
  try {
    return await measure()
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    console.error(`terminal bench: ${what} failed: ${message}`)
    return [{ name: `${what} (failed)`, median: Number.NaN, unit: '', runs: 0, note: message.slice(0, 120) }]
  }
}

async function openPage(
  browser: BareChromium,
  url: string,
  sandboxId: string,
  { ignoreHTTPSErrors = false } = {},
): Promise<BarePage> {
  const page = await browser.newPage(url, { ignoreHTTPSErrors })
  await page.evaluate((id) => window.terminalBench.connect(id, 30_000), sandboxId)
  return page
}

async function openTerminal(page: BarePage, deadline: Deadline) {
  return page.evaluate((ms) => window.terminalBench.open(ms), deadline.left())
}

/** Waits for the armed marker of terminal `id`, at most `ms`. */
function markerParsed(page: BarePage, id: number, ms: number) {
  return page.evaluate(({ id, ms }) => window.terminalBench.result(id, ms), { id, ms })
}

/**
 * 1. Output throughput of a 32 MiB flood, the same bytes written into the same xterm with no
 * network (the limit), and the same bytes from a trivial server read as the IDE reads a stream
 * (the baseline: what the page and the network take, without a runtime, a PTY or the router).
 */
async function throughput(page: BarePage, isolation: string, baseline: BaselineServer): Promise<Figure[]> {
  const deadline = new Deadline('throughput', 240_000)
  const { id, cols, rows, renderer } = await openTerminal(page, deadline)
  const streamed: number[] = []
  const written: number[] = []
  const ratios: number[] = []
  const fromBaseline: number[] = []
  const baselineRatios: number[] = []
  const baselineUrl = `${baseline.url}/flood?${new URLSearchParams({ line: floodLine, bytes: String(floodBytes) })}`
  // One warm-up pair (it also fills the scrollback), then five, alternating so load hits both alike.
  for (let run = 0; run < 6; run++) {
    await page.evaluate(
      ([id, command, end]) => {
        window.terminalBench.type(id, command)
        window.terminalBench.arm(id, end, true)
      },
      [id, floodCommand, floodEnd] as const,
    )
    await page.press('Enter')
    const flood = await markerParsed(page, id, deadline.left())
    await sleep(300) // the prompt after the marker, and nothing else in flight
    const direct = await page.evaluate(
      ([id, line, size, ms]) => window.terminalBench.limit(id, line, size, ms),
      [id, floodLine, floodBytes, deadline.left()] as const,
    )
    const plain = await page.evaluate(([id, url, ms]) => window.terminalBench.baselineStream(id, url, ms), [
      id,
      baselineUrl,
      deadline.left(),
    ] as const)
    if (run > 0) {
      streamed.push(mbPerSecond(flood))
      written.push(mbPerSecond(direct))
      ratios.push(mbPerSecond(flood) / mbPerSecond(direct))
      fromBaseline.push(mbPerSecond(plain))
      baselineRatios.push(mbPerSecond(plain) / mbPerSecond(direct))
    }
  }
  await page.evaluate((id) => window.terminalBench.close(id), id)
  return [
    {
      name: 'terminal output, 32 MiB of lines to last line parsed',
      median: median(streamed),
      unit: 'MB/s',
      runs: streamed.length,
      note: `ratio to limit ${median(ratios).toFixed(2)} (goal ≥ 0.8), median of pairs; ${cols}x${rows}, ${renderer} renderer, ${isolation}`,
    },
    {
      name: 'limit: same bytes by term.write, no network',
      median: median(written),
      unit: 'MB/s',
      runs: written.length,
      note: '64 KiB writes into the same xterm, in the same run (issue: about 55 MB/s here)',
    },
    {
      name: 'baseline: same bytes from a trivial server, read as the IDE reads',
      median: median(fromBaseline),
      unit: 'MB/s',
      runs: fromBaseline.length,
      note: `ratio to limit ${median(baselineRatios).toFixed(2)}; no runtime, PTY or router: the page and the network alone`,
    },
  ]
}

/**
 * 2. Keydown to the echoed character parsed, at the shell's prompt. `over` names the way: plain
 * http or https (HTTP/2); on the local stack keystrokes go by StreamInput through the router's
 * WebSocket tunnel either way, and the note counts the calls of each kind.
 */
async function echo(page: BarePage, over: 'http' | 'https', baseline: BaselineServer): Promise<Figure[]> {
  const deadline = new Deadline('echo latency', 180_000)
  const { id } = await openTerminal(page, deadline)
  const samples = await keyEchoes(page, id, 200, deadline)
  const calls = await page.evaluate(() => window.terminalBench.inputCalls())
  const legs = await keyLegs(page, id, over, deadline)
  await page.evaluate((id) => window.terminalBench.close(id), id)
  const floor = await page.evaluate(([url, ms]) => window.terminalBench.openEchoBaseline(url, ms), [
    baseline.url,
    deadline.left(),
  ] as const)
  const baselineSamples = await keyEchoes(page, floor.id, 200, deadline)
  await page.evaluate((id) => window.terminalBench.close(id), floor.id)
  const input = `${calls.tunnelled} StreamInput through the tunnel, ${calls.StreamInput} by fetch, ${calls.SendInput} SendInput`
  const baselineWay = over === 'https' ? 'one streamed upload' : 'a request per key'
  return [
    {
      name: `echo latency over ${over}, keydown to echo parsed, p50`,
      median: quantile(samples, 0.5),
      unit: 'ms',
      runs: samples.length,
      note: `goal ≤ 4 ms on loopback; ${input}`,
    },
    {
      name: `echo latency over ${over}, keydown to echo parsed, p95`,
      median: quantile(samples, 0.95),
      unit: 'ms',
      runs: samples.length,
      note: 'goal < 6 ms on loopback',
    },
    {
      name: `baseline over ${over}: keys to a trivial server and back, p50`,
      median: quantile(baselineSamples, 0.5),
      unit: 'ms',
      runs: baselineSamples.length,
      note: `p95 ${quantile(baselineSamples, 0.95).toFixed(2)} ms; ${baselineWay}, no runtime, PTY or router; same page, same keys`,
    },
    ...legs,
  ]
}

/**
 * Keydown to the echoed character parsed in terminal `id`, for `keys` keys typed at its prompt
 * (after ten not counted); returns the samples in ms.
 */
async function keyEchoes(page: BarePage, id: number, keys: number, deadline: Deadline): Promise<number[]> {
  const samples: number[] = []
  for (let i = -10; i < keys; i++) {
    if (i % 50 === 0) {
      // Keep the line short: Ctrl-U (not timed), and let its redraw land.
      await page.evaluate((id) => window.terminalBench.type(id, '\x15'), id)
      await sleep(150)
    }
    const key = String.fromCharCode(97 + ((i + 26) % 26))
    await page.evaluate(([id, key]) => window.terminalBench.arm(id, key, true), [id, key] as const)
    await page.press(key)
    const timing = await markerParsed(page, id, Math.min(10_000, deadline.left()))
    if (i >= 0) samples.push(timing.ms)
    // A pause of a random part of a frame, so key presses do not lock to the frame clock.
    await sleep(Math.random() * 17)
  }
  return samples
}

/** A reader in the sandbox: the terminal raw, and for each byte read, its clock and the byte. */
const keyReader = `
import os, time, tty, termios
saved = termios.tcgetattr(0)
tty.setraw(0)
os.write(1, b'reader-' + b'ready\\r\\n')
try:
    while True:
        key = os.read(0, 1)
        at = time.time_ns()
        if key == b'\\x04':
            break
        os.write(1, b'R%d:%s\\r\\n' % (at, key))
finally:
    termios.tcsetattr(0, termios.TCSADRAIN, saved)
`

/**
 * 2d. Echo in two legs: keydown to a program in the sandbox reading the key (the request's way
 * in: the page's fetch or stream, the router, the runtime, the PTY), and from its read to its
 * answer parsed in the page (the way out). The program prints the moment it read each key; the
 * clocks are the shell's and the page's, as in 2c.
 */
async function keyLegs(
  page: BarePage,
  id: number,
  over: 'http' | 'https',
  deadline: Deadline,
): Promise<Figure[]> {
  await page.evaluate((id) => window.terminalBench.arm(id, 'reader-ready', false), id)
  // In base64, so that no quoting of the shell's stands between the script and python.
  const script = Buffer.from(keyReader).toString('base64')
  // Ctrl-U first: the echo figure left its keys on the line.
  const command = `\x15 python3 -c "$(echo ${script} | base64 -d)"\r`
  await page.evaluate(([id, command]) => window.terminalBench.type(id, command), [id, command] as const)
  await markerParsed(page, id, deadline.left())
  const inward: number[] = []
  const outward: number[] = []
  const parse: number[] = []
  for (let i = -5; i < 100; i++) {
    const key = String.fromCharCode(97 + ((i + 26) % 26))
    await page.evaluate(([id, key]) => window.terminalBench.arm(id, `:${key}\r\n`, true), [id, key] as const)
    await page.press(key)
    const timing = await markerParsed(page, id, Math.min(10_000, deadline.left()))
    const readAt = Number(timing.tail.match(new RegExp(`R(\\d+):${key}\r\n`))?.[1]) / 1e6
    if (!(readAt > 0)) throw new Error(`no read time in ${JSON.stringify(timing.tail.slice(-80))}`)
    if (i >= 0) {
      inward.push(readAt - timing.startEpochMs)
      outward.push(timing.ms - (readAt - timing.startEpochMs))
      parse.push(timing.parseMs)
    }
    await sleep(Math.random() * 17)
  }
  await page.evaluate((id) => window.terminalBench.type(id, '\x04'), id)
  const leg = (name: string, samples: number[]): Figure => ({
    name: `key over ${over}, ${name}`,
    median: median(samples),
    unit: 'ms',
    runs: samples.length,
    note: `p95 ${quantile(samples, 0.95).toFixed(2)} ms; clocks of the sandbox and the page`,
  })
  return [
    leg('keydown to read in the sandbox', inward),
    leg('read in the sandbox to answer parsed', outward),
    leg('of which term.write to parsed', parse),
  ]
}

/**
 * 2c. Where echo time goes on the way back: a shell in the sandbox prints its clock (`date
 * +%s%N`) every 20 ms on a Start stream, and the page subtracts it from its own clock as each
 * event arrives. The same through the router and straight to the runtime's loopback port, so the
 * router's share shows.
 */
async function outputLatency(
  page: BarePage,
  over: 'http' | 'https',
  targets: { router: string; runtime?: string },
  accessToken: string,
): Promise<Figure[]> {
  const figures: Figure[] = []
  for (const [via, baseUrl] of Object.entries(targets)) {
    if (!baseUrl) continue
    const delays = await page.evaluate(
      ([baseUrl, accessToken]) => window.terminalBench.outputDelays(baseUrl, accessToken),
      [baseUrl, accessToken] as const,
    )
    figures.push({
      name: `output latency over ${over}, shell to page, ${via === 'router' ? 'through the router' : 'straight to the runtime'}`,
      median: median(delays),
      unit: 'ms',
      runs: delays.length,
      note: `p95 ${quantile(delays, 0.95).toFixed(2)} ms; one way, clocks of the shell and the page`,
    })
  }
  return figures
}

/** Output parsed before the key: well into the flood, the output window full by then. */
const intoFloodBytes = 4 * 1024 * 1024

/** A slow link: 10 Mbit/s each way, 40 ms each way (a proxy in front of the stack). */
const slowLink = { bytesPerSecond: 1_250_000, oneWayMs: 40, intoFloodBytes: 2 * 1024 * 1024 }
/** The output window the IDE asked for before it followed the link. */
const fixedWindowBytes = 4 * 1024 * 1024

/**
 * Ctrl-C into terminal `id` once `bytes` of a `yes` flood are parsed; answers the time to the
 * prompt parsed again, and how much output was still parsed after the key.
 */
async function interruptOnce(page: BarePage, id: number, bytes: number, deadline: Deadline) {
  // Shown and focused: the key goes where the focus is.
  await page.evaluate((id) => window.terminalBench.show(id), id)
  await page.evaluate((id) => window.terminalBench.type(id, 'yes\r'), id)
  await page.evaluate(({ id, bytes, ms }) => window.terminalBench.waitParsed(id, bytes, ms), {
    id,
    bytes,
    ms: deadline.left(),
  })
  await page.evaluate(({ id, prompt }) => window.terminalBench.arm(id, prompt, true), {
    id,
    prompt: benchPrompt,
  })
  await page.press('Control+C')
  const timing = await markerParsed(page, id, Math.min(20_000, deadline.left()))
  await sleep(200)
  return timing
}

/** 3. Ctrl-C while `yes` floods the terminal, to the prompt parsed again (the first is a warm-up). */
async function interrupt(page: BarePage): Promise<Figure[]> {
  const deadline = new Deadline('Ctrl-C during yes', 120_000)
  const { id } = await openTerminal(page, deadline)
  const samples: number[] = []
  const drained: number[] = []
  for (let run = 0; run < 11; run++) {
    const timing = await interruptOnce(page, id, intoFloodBytes, deadline)
    if (run > 0) {
      samples.push(timing.ms)
      drained.push(timing.bytes)
    }
  }
  await page.evaluate((id) => window.terminalBench.close(id), id)
  return [
    {
      name: 'Ctrl-C during yes, key to prompt parsed',
      median: median(samples),
      unit: 'ms',
      runs: samples.length,
      note: `goal < 200 ms; ${(median(drained) / 1e6).toFixed(1)} MB of output still parsed after the key`,
    },
  ]
}

/**
 * 3b. The same over a slow link (a proxy in front of the stack, server/testing/delayingProxy.ts),
 * the IDE's terminal beside one whose output window stays 4 MiB (as it was before it followed
 * the link), alternating. What is in flight at the key must cross the link before the prompt.
 */
async function interruptOverSlowLink(
  browser: BareChromium,
  platform: RunningPlatform,
  sandboxId: string,
): Promise<Figure[]> {
  const proxy = await startDelayingProxy(platform.port, slowLink.oneWayMs, slowLink)
  const deadline = new Deadline('Ctrl-C over a slow link', 240_000)
  try {
    const url = ideLink(`http://127.0.0.1:${proxy.port}`, platform.ideToken.current(), pagePath)
    const page = await openPage(browser, url, sandboxId)
    try {
      const following = (await openTerminal(page, deadline)).id
      const fixed = (
        await page.evaluate(([ms, bytes]) => window.terminalBench.open(ms, bytes), [
          deadline.left(),
          fixedWindowBytes,
        ] as const)
      ).id
      const times = { following: [] as number[], fixed: [] as number[] }
      for (let run = 0; run < 7; run++) {
        const a = await interruptOnce(page, following, slowLink.intoFloodBytes, deadline)
        const b = await interruptOnce(page, fixed, slowLink.intoFloodBytes, deadline)
        if (run === 0) continue
        times.following.push(a.ms)
        times.fixed.push(b.ms)
      }
      const [low, high] = ratioInterval(times.following, times.fixed, median)
      const ratio = median(times.following) / median(times.fixed)
      return [
        {
          name: 'Ctrl-C during yes over 10 Mbit/s and 40 ms each way',
          median: median(times.following),
          unit: 'ms',
          runs: times.following.length,
          note: `to prompt parsed; the window following the link, ratio to a fixed 4 MiB ${ratio.toFixed(2)} (90% interval ${low.toFixed(2)}–${high.toFixed(2)})`,
        },
        {
          name: '  same, output window fixed at 4 MiB',
          median: median(times.fixed),
          unit: 'ms',
          runs: times.fixed.length,
          note: 'what the IDE asked for before',
        },
      ]
    } finally {
      await page.close()
    }
  } finally {
    await proxy.close()
  }
}

/**
 * After a full GC: the V8 heap and the ArrayBuffers' backing stores beside it (CDP
 * Runtime.getHeapUsage; xterm keeps every buffer line in a typed array, so that is where
 * scrollback lives, and Performance.getMetrics' JSHeapUsedSize leaves it out), and the
 * renderer's RSS (/proc).
 */
async function pageMemory(page: BarePage) {
  await page.cdp.HeapProfiler.collectGarbage()
  // backingStorageSize is newer than the protocol types' version.
  const usage = (await page.cdp.Runtime.getHeapUsage()) as unknown as {
    usedSize: number
    backingStorageSize: number
  }
  const rss = rendererRss()
  return {
    js: usage.usedSize + usage.backingStorageSize,
    v8: usage.usedSize,
    buffers: usage.backingStorageSize,
    rss: rss.bytes,
    renderers: rss.renderers,
  }
}

/** 4. A fresh page with eight terminals, each holding a full 10,000-line scrollback. */
async function memory(browser: BareChromium, url: string, sandboxId: string): Promise<Figure[]> {
  const deadline = new Deadline('memory of eight terminals', 180_000)
  const page = await openPage(browser, url, sandboxId)
  try {
    const before = await pageMemory(page)
    let size = ''
    for (let n = 0; n < 8; n++) {
      // Each new terminal is shown and the one before detached, as the IDE does with tabs.
      const { id, cols, rows } = await openTerminal(page, deadline)
      size = `${cols}x${rows}`
      await page.evaluate(
        ([id, command]) => {
          window.terminalBench.arm(id, 'fill-done-4', false)
          window.terminalBench.type(id, command)
        },
        [
          id,
          ` seq -f 'scrollback line %05g: the quick brown fox jumps over the lazy dog' 1 10100; echo fill-done-$((2+2))\r`,
        ] as const,
      )
      await markerParsed(page, id, deadline.left())
    }
    await sleep(500)
    const after = await pageMemory(page)
    const perTerminal = (bytes: number) => `${(bytes / 8 / mib).toFixed(1)} MiB per terminal`
    const renderers = after.renderers > 1 ? `; largest of ${after.renderers} renderers` : ''
    return [
      {
        name: 'memory, 8 terminals x 10,000 lines scrollback: JS heap',
        median: after.js / mib,
        unit: 'MiB',
        runs: 1,
        note:
          `V8 ${(after.v8 / mib).toFixed(1)} + ArrayBuffers ${(after.buffers / mib).toFixed(1)} MiB; ` +
          `${(before.js / mib).toFixed(1)} before, ${perTerminal(after.js - before.js)}; ${size}, 7 in hidden tabs`,
      },
      {
        name: 'memory, 8 terminals x 10,000 lines scrollback: renderer',
        median: after.rss / mib,
        unit: 'MiB RSS',
        runs: 1,
        note: `${(before.rss / mib).toFixed(0)} MiB before, ${perTerminal(after.rss - before.rss)}${renderers}`,
      },
    ]
  } finally {
    await page.close()
  }
}

/** Terminal figures, all in one run on the real stack. */
export async function terminalFigures(): Promise<Figure[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-terminal-page-'))
  let stack: TestPlatform | undefined
  let browser: BareChromium | undefined
  let baseline: BaselineServer | undefined
  const figures: Figure[] = []
  try {
    await buildPage(outDir)
    stack = await startBenchPlatform()
    const { platform } = stack
    servePage(platform, outDir)
    figures.push(...(await attempt('against wetty', () => againstWettyInASandbox(stack as TestPlatform))))
    const created = await stack.api('POST', '/v2/sandboxes', {})
    if (!created.ok) throw new Error(`creating the sandbox: ${created.status} ${await created.text()}`)
    const { sandboxID } = (await created.json()) as { sandboxID: string }
    const url = ideLink(platform.url, platform.ideToken.current(), pagePath)
    browser = await launchBareChromium()
    const page = await openPage(browser, url, sandboxID)
    const isolation = `isolation: ${platform.launcher.isolation}`
    baseline = await startBaselineServer()
    const plain = baseline
    figures.push(...(await attempt('terminal output throughput', () => throughput(page, isolation, plain))))
    figures.push(...(await attempt('echo latency over http', () => echo(page, 'http', plain))))
    figures.push(
      ...(await attempt('output latency over http', async () =>
        outputLatency(page, 'http', ...(await runtimeTargets(platform, sandboxID))),
      )),
    )
    figures.push(...(await attempt('Ctrl-C during yes', () => interrupt(page))))
    await page.close()
    figures.push(
      ...(await attempt('Ctrl-C over a slow link', () =>
        interruptOverSlowLink(browser as BareChromium, platform, sandboxID),
      )),
    )
    figures.push(
      ...(await attempt('memory of eight terminals', () => memory(browser as BareChromium, url, sandboxID))),
    )
    await stack.close()
    stack = undefined
    figures.push(
      ...(await attempt('echo latency over https', () => echoOverHttps(browser as BareChromium, outDir))),
    )
  } finally {
    await browser?.close()
    await stack?.close()
    await baseline?.close()
    rmSync(outDir, { recursive: true, force: true })
  }
  return figures
}

/** The IDE itself against wetty (againstWetty.ts), in a sandbox of its own that goes after. */
async function againstWettyInASandbox(stack: TestPlatform): Promise<Figure[]> {
  const { sandboxID } = await stack.platform.manager.create({})
  try {
    return await againstWetty(stack, sandboxID)
  } finally {
    await stack.platform.manager.kill(sandboxID)
  }
}

/**
 * 2b. Echo on a stack started with `--tls`: HTTPS with HTTP/2, where the terminal streams its
 * keystrokes over StreamInput. The browser is told to accept the stack's self-signed certificate,
 * as a user does once (or trusts it, see docs/local-stack.md).
 */
async function echoOverHttps(browser: BareChromium, pageDir: string): Promise<Figure[]> {
  const stack = await startBenchPlatform({ maxSandboxes: 1, tls: true })
  const { certificate } = stack.platform
  if (!certificate) throw new Error('the --tls stack has no certificate')
  const baseline = await startBaselineServer(certificate)
  try {
    servePage(stack.platform, pageDir)
    const { sandboxID } = await stack.platform.manager.create({})
    const link = ideLink(stack.url, stack.platform.ideToken.current(), pagePath)
    const page = await openPage(browser, link, sandboxID, { ignoreHTTPSErrors: true })
    try {
      const figures = await echo(page, 'https', baseline)
      return [
        ...figures,
        ...(await outputLatency(page, 'https', ...(await runtimeTargets(stack.platform, sandboxID)))),
      ]
    } finally {
      await page.close()
    }
  } finally {
    await stack.close()
    await baseline.close()
  }
}
