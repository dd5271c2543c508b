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
import { freshPage } from './freshPage'
import { type Figure, median, percentile, seededRandom } from './table'

const keys = 80
const oneWayMs = 50
const editsEach = 300

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
    new MutationObserver(() => {
      const length = (lines.textContent ?? '').length
      seen[length] ??= performance.timeOrigin + performance.now()
    }).observe(lines, { childList: true, subtree: true, characterData: true })
  })
}

/** Milliseconds from each key typed in `from` to its glyph in `to`. */
async function keyToGlyph(from: Page, to: Page): Promise<number[]> {
  await noteLengths(to)
  const start = (await to.evaluate(
    () => document.querySelector('.code-editor:not([hidden]) .view-lines')?.textContent?.length ?? 0,
  )) as number
  const sent: number[] = []
  for (let i = 0; i < keys; i++) {
    sent.push(await from.evaluate(() => performance.timeOrigin + performance.now()))
    await from.keyboard.press('x')
    // One key at a time, as a person types (about 8 a second), so each glyph is its own change.
    await from.waitForTimeout(120)
  }
  await to.waitForFunction(
    (length) =>
      (globalThis as unknown as { lengthsSeen: Record<number, number> }).lengthsSeen[length] !== undefined,
    start + keys,
    { timeout: 30_000 },
  )
  const seen = (await to.evaluate(
    () => (globalThis as unknown as { lengthsSeen: Record<number, number> }).lengthsSeen,
  )) as Record<number, number>
  return sent.map((at, i) => (seen[start + i + 1] as number) - at)
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
  await first.keyboard.press('Control+S')
  for (let tries = 0; tries < 120; tries++) {
    const tabs = await Promise.all(pages.map((page) => new EditorPage(page).tab(name).textContent()))
    if (tabs.every((tab) => tab !== null && !tab.includes('(unsaved)'))) return Date.now() - typed
    await new Promise((r) => setTimeout(r, 250))
  }
  return Number.NaN
}

export async function togetherFigures(): Promise<Figure[]> {
  const stack = new LocalStack(await freePort())
  await stack.start()
  const browser = await chromium.launch(chromiumLaunchOptions())
  const proxy = await startDelayingProxy(stack.port, oneWayMs)
  try {
    const files = await SandboxFiles.of(stack)
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

    return figures
  } finally {
    await proxy.close()
    await browser.close()
    await stack.dispose()
  }
}
