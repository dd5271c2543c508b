// `npm run bench -- embed`: what the IDE's pages download before they are usable (gzip as the
// server sends it), and the time from opening a documentation page to a usable terminal in its
// embed, with a cold cache, on loopback: a terminal-only embed against the full one (files,
// editor, terminal) in the same run.
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pages, readBuild } from '../scripts/weight'
import { ideLink } from '../server/platform/access/ideLink'
import { ensureDefaultSandbox } from '../server/platform/defaultSandbox'
import { demoHostName } from '../server/platform/embed/embedPolicy'
import { type BareChromium, launchBareChromium } from './bareChromium'
import { startBenchPlatform } from './benchStack'
import { type Figure, median } from './table'

const runs = 5

/** Milliseconds from opening the demo page (a fresh browser context: cold cache) to a shell prompt in its embed. */
async function timeToPrompt(browser: BareChromium, url: string): Promise<number> {
  const page = await browser.newPage('about:blank')
  try {
    const frames: string[] = []
    page.cdp.Target.attachedToTarget(({ sessionId, targetInfo }) => {
      if (targetInfo.type === 'iframe') frames.push(sessionId)
    })
    // The IDE is on another site than the page: its frame is a process, and a target, of its own.
    await page.cdp.Target.setAutoAttach({ autoAttach: true, waitForDebuggerOnStart: false, flatten: true })
    const started = performance.now()
    await page.cdp.Page.navigate({ url })
    for (const deadline = started + 60_000; performance.now() < deadline; ) {
      for (const sessionId of frames) {
        const answer = (await page.cdp
          .send(
            'Runtime.evaluate',
            { expression: `document.querySelector('.xterm-rows')?.textContent ?? ''`, returnByValue: true },
            sessionId,
          )
          .catch(() => undefined)) as { result?: { value?: string } } | undefined
        if (answer?.result?.value?.includes('$')) return performance.now() - started
      }
      await sleep(5)
    }
    throw new Error(`no prompt in the embed of ${url} within 60 s`)
  } finally {
    await page.close()
  }
}

export async function embedFigures(): Promise<Figure[]> {
  const build = readBuild(join(import.meta.dirname, '..', 'dist', 'ide'))
  const sizes: Figure[] = [
    ['any page before it renders (entry)', pages.entry],
    ['workbench with explorer and editor panels, no Monaco', pages.workbench],
    ['terminal-only embed', pages.terminalEmbed],
  ].map(([what, keys]) => ({
    name: `weight: ${what}`,
    median: build.gzipBytes(keys as readonly string[]) / 1024,
    unit: 'kB gzip',
    runs: 1,
    note: `${build.chunks(keys as readonly string[]).length} scripts`,
  }))

  const stack = await startBenchPlatform()
  const browser = await launchBareChromium()
  try {
    // What `npm start` does first: the demo page embeds the default sandbox.
    await ensureDefaultSandbox(stack.platform.manager, { dataDir: stack.dataDir, timeoutSeconds: 1800 })
    const demo = `http://${demoHostName}:${stack.platform.port}`
    const token = stack.platform.ideToken.current()
    const url = (panels: string) => ideLink(demo, token, `/?panels=${panels}`)
    const times = { terminal: [] as number[], full: [] as number[] }
    // One warm-up of each (the sandbox's first shell), then alternating rounds.
    await timeToPrompt(browser, url('terminal'))
    await timeToPrompt(browser, url('files,editor,terminal'))
    for (let round = 0; round < runs; round++) {
      times.terminal.push(await timeToPrompt(browser, url('terminal')))
      times.full.push(await timeToPrompt(browser, url('files,editor,terminal')))
    }
    const ratio = median(times.terminal) / median(times.full)
    return [
      ...sizes,
      {
        name: 'embed: page opened to a usable terminal, terminal only (cold cache)',
        median: median(times.terminal),
        unit: 'ms',
        runs,
        note: `ratio to the full embed ${ratio.toFixed(2)}; loopback, headless Chromium`,
      },
      {
        name: 'embed: page opened to a usable terminal, files, editor and terminal (cold cache)',
        median: median(times.full),
        unit: 'ms',
        runs,
      },
    ]
  } finally {
    await browser.close()
    await stack.close()
  }
}
