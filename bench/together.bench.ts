// Co-editing figures (issue 43), on the real stack (`npm start`'s, serving dist/ide) in headless
// Chromium: two people with the same file open, one types, and the time from each key to its
// glyph in the other's editor; over loopback, and with 50 ms added each way (the delaying proxy
// in front of the stack, as a distant sandbox). Then three people making random edits at once
// (inserts, deletes across lines, pastes, undo): whether every editor ends with the same text
// and a save writes exactly that.
import { type Browser, chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../e2e/chromium'
import { EditorPage } from '../e2e/pages/EditorPage'
import { WorkbenchPage } from '../e2e/pages/WorkbenchPage'
import { SandboxFiles } from '../e2e/sandboxFiles'
import { freePort, LocalStack } from '../e2e/stack'
import { startDelayingProxy } from '../server/testing/delayingProxy'
import { loadCollaboration } from '../src/sandbox/collab/collaboration'
import type { SharedText } from '../src/sandbox/collab/SharedDocuments'
import { SandboxSession } from '../src/sandbox/SandboxSession'
import { until } from '../src/sandbox/testing/until'
import { freshPage } from './freshPage'
import { type Figure, median, percentile, seededRandom } from './table'

const keys = 80
const oneWayMs = 50
const editsEach = 300
/** A teacher projecting a file: this many viewers. */
const viewers = Number(process.env.BENCH_TOGETHER_VIEWERS ?? 20)

/** A person: a page of their own with `path` open and the keyboard in its editor. */
async function person(browser: Browser, link: string, path: string): Promise<Page> {
  const page = await freshPage(browser, 'together')
  await new WorkbenchPage(page).goto(link)
  const editor = new EditorPage(page)
  await editor.open(path)
  await editor.editable()
  await editor.editor.locator('.view-lines').click()
  return page
}

/** Starts noting, in a page, when its editor's text reaches each length (on the machine's clock). */
function noteLengths(page: Page): Promise<void> {
  return page.evaluate(() => {
    const seen: Record<number, number> = {}
    ;(globalThis as unknown as { lengthsSeen: Record<number, number> }).lengthsSeen = seen
    const lines = document.querySelector('.code-editor:not([hidden]) .view-lines') as HTMLElement
    let reached = (lines.textContent ?? '').length
    new MutationObserver(() => {
      const length = (lines.textContent ?? '').length
      // One frame may draw several keys: each length up to this one is reached now.
      for (let at = reached + 1; at <= length; at++) seen[at] ??= performance.timeOrigin + performance.now()
      reached = Math.max(reached, length)
    }).observe(lines, { childList: true, subtree: true, characterData: true })
  })
}

/** Milliseconds from each key typed in `from` to its glyph in each of `to`, all together. */
async function keyToGlyph(from: Page, to: Page | Page[], count = keys): Promise<number[]> {
  const pages = Array.isArray(to) ? to : [to]
  const samples = await Promise.all(pages.map((page) => watchGlyphs(page, count)))
  const sent: number[] = []
  for (let i = 0; i < count; i++) {
    sent.push(await from.evaluate(() => performance.timeOrigin + performance.now()))
    await from.keyboard.press('x')
    // One key at a time, as a person types (about 8 a second), so each glyph is its own change.
    await from.waitForTimeout(120)
  }
  return (await Promise.all(samples.map((seen) => seen()))).flatMap((times) =>
    sent.map((at, i) => (times[i] as number) - at),
  )
}

/** Starts watching a page's editor; answers a function that waits for `count` more glyphs and gives when each came. */
async function watchGlyphs(page: Page, count: number): Promise<() => Promise<number[]>> {
  await noteLengths(page)
  const start = (await page.evaluate(
    () => document.querySelector('.code-editor:not([hidden]) .view-lines')?.textContent?.length ?? 0,
  )) as number
  return async () => {
    await page.waitForFunction(
      (length) =>
        (globalThis as unknown as { lengthsSeen: Record<number, number> }).lengthsSeen[length] !== undefined,
      start + count,
      { timeout: 60_000 },
    )
    const seen = (await page.evaluate(
      () => (globalThis as unknown as { lengthsSeen: Record<number, number> }).lengthsSeen,
    )) as Record<number, number>
    return Array.from({ length: count }, (_, i) => seen[start + i + 1] as number)
  }
}

/**
 * Three people editing at once: random inserts, deletes across lines, pastes and undos, then one
 * saves. Every editor holds the same text exactly when all three tabs are clean after that save
 * (a tab is unsaved while its text differs from the disk's). Answers the milliseconds from the
 * last key to all three clean, or NaN if they never were.
 */
async function converge(pages: Page[], name: string): Promise<number> {
  await Promise.all(
    pages.map(async (page, who) => {
      const random = seededRandom(who + 1)
      for (let i = 0; i < editsEach; i++) {
        const roll = random()
        if (roll < 0.1) await page.keyboard.press(random() < 0.5 ? 'Control+Home' : 'Control+End')
        else if (roll < 0.25) await page.keyboard.press(random() < 0.5 ? 'ArrowUp' : 'ArrowDown')
        else if (roll < 0.4) await page.keyboard.press('Backspace')
        else if (roll < 0.45) {
          await page.keyboard.press('Shift+ArrowUp')
          await page.keyboard.press('Delete')
        } else if (roll < 0.5) await page.keyboard.insertText(`pasted by ${who}\nover lines ${i}\n`)
        else if (roll < 0.55) await page.keyboard.press('Control+Z')
        else if (roll < 0.6) await page.keyboard.press('Enter')
        else await page.keyboard.type(String.fromCharCode(97 + Math.floor(random() * 26)))
      }
    }),
  )
  const typed = Date.now()
  const [first] = pages as [Page]
  // Edits still on their way when the first save is made leave everyone unsaved after it: saved
  // again until all are clean, which they are only once every editor holds the saved text.
  for (let save = 0; save < 6; save++) {
    await first.keyboard.press('Control+S')
    for (let tries = 0; tries < 20; tries++) {
      await new Promise((r) => setTimeout(r, 250))
      const tabs = await Promise.all(pages.map((page) => new EditorPage(page).tab(name).textContent()))
      if (tabs.every((tab) => tab !== null && !tab.includes('(unsaved)'))) return Date.now() - typed
    }
  }
  return Number.NaN
}

/**
 * A viewer without a browser: the page's own co-editing code (session, relay, shared documents)
 * run in Node, so twenty of them measure the relay's fan-out, not twenty renderers on two cores.
 */
async function nodeViewer(runtimeUrl: string, path: string, accessToken: string) {
  const session = new SandboxSession({ source: 'runtime', runtimeUrl, accessToken })
  session.start()
  await until('the viewer’s session', () =>
    session.getSnapshot().state.kind === 'running' ? true : undefined,
  )
  const collaboration = await loadCollaboration(session, 'viewer')
  const shared = await collaboration.documents.join(path, '')
  return {
    shared,
    dispose: () => {
      collaboration.dispose()
      session.dispose()
    },
  }
}

/** Milliseconds from each key typed in `from` to the text's growing by it in each Node viewer. */
async function keyToShared(
  from: Page,
  viewersOf: { shared: SharedText }[],
  count: number,
): Promise<number[]> {
  const watches = viewersOf.map(({ shared }) => {
    const start = shared.text.length
    const times: number[] = []
    shared.text.observe(() => {
      const now = performance.timeOrigin + performance.now()
      for (let at = start + times.length + 1; at <= shared.text.length; at++) times.push(now)
    })
    return {
      times,
      done: () => until('every key', () => (times.length >= count ? times : undefined), 60_000),
    }
  })
  const sent: number[] = []
  for (let i = 0; i < count; i++) {
    sent.push(await from.evaluate(() => performance.timeOrigin + performance.now()))
    await from.keyboard.press('x')
    await from.waitForTimeout(120)
  }
  const all = await Promise.all(watches.map((w) => w.done()))
  return all.flatMap((times) => sent.map((at, i) => (times[i] as number) - at))
}

export async function togetherFigures(): Promise<Figure[]> {
  const stack = new LocalStack(await freePort())
  await stack.start()
  const browser = await chromium.launch(chromiumLaunchOptions())
  const proxy = await startDelayingProxy(stack.port, oneWayMs)
  try {
    const files = await SandboxFiles.of(stack)
    const token = await files.token()
    const figures: Figure[] = []

    await files.write('/home/user/typed.txt', '')
    const ann = await person(browser, stack.link(), '/home/user/typed.txt')
    const bob = await person(browser, stack.link(), '/home/user/typed.txt')
    const near = await keyToGlyph(ann, bob)
    const note = (samples: number[], goal: string) =>
      `p95 ${percentile(samples, 95).toFixed(0)} ms (${goal}); typed in one page, seen in another's editor`
    figures.push({
      name: 'Co-editing: a key to its glyph in another browser, loopback',
      median: median(near),
      unit: 'ms',
      runs: near.length,
      note: note(near, 'goal p50 < 50, p95 < 100'),
    })

    await files.write('/home/user/far.txt', '')
    const far = `http://127.0.0.1:${proxy.port}`
    const annFar = await person(browser, stack.link('/', far), '/home/user/far.txt')
    const bobFar = await person(browser, stack.link('/', far), '/home/user/far.txt')
    const distant = await keyToGlyph(annFar, bobFar)
    figures.push({
      name: `Co-editing: a key to its glyph, ${oneWayMs} ms added each way`,
      median: median(distant),
      unit: 'ms',
      runs: distant.length,
      note: note(distant, 'goal p95 < 200'),
    })
    for (const page of [ann, bob, annFar, bobFar]) await page.context().close()

    await files.write('/home/user/converge.txt', 'one\ntwo\nthree\n')
    const three = [
      await person(browser, stack.link(), '/home/user/converge.txt'),
      await person(browser, stack.link(), '/home/user/converge.txt'),
      await person(browser, stack.link(), '/home/user/converge.txt'),
    ]
    const settled = await converge(three, 'converge.txt')
    figures.push({
      name: `Co-editing: 3 browsers × ${editsEach} random edits at once, last key to all identical and saved`,
      median: settled,
      unit: 'ms',
      runs: 1,
      note: Number.isNaN(settled)
        ? 'NOT CONVERGED: some editor still differs from the saved text'
        : `all three editors equal the saved file (${(await files.read('/home/user/converge.txt')).length} chars)`,
    })
    for (const page of three) await page.context().close()

    await files.write('/home/user/projected.txt', '')
    const projector = await person(browser, stack.link(), '/home/user/projected.txt')
    const audience = await Promise.all(
      Array.from({ length: viewers }, () =>
        nodeViewer(`${stack.url}/.sandbox/${files.sandboxId}`, '/home/user/projected.txt', token),
      ),
    )
    const projected = await keyToShared(projector, audience, 30)
    figures.push({
      name: `Co-editing: one typist, ${viewers} viewers, a key to the text in each`,
      median: median(projected),
      unit: 'ms',
      runs: projected.length,
      note: `${note(projected, 'goal p95 < 200')} (viewers: the page's own co-editing code in Node, no renderer)`,
    })
    await projector.context().close()
    for (const viewer of audience) viewer.dispose()

    return figures
  } finally {
    await proxy.close()
    await browser.close()
    await stack.dispose()
  }
}
