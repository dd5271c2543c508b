import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../e2e/chromium'
import { EditorPage } from '../e2e/pages/EditorPage'
import { WorkbenchPage } from '../e2e/pages/WorkbenchPage'
import { startRuntimeProcess } from '../e2e/runtimeProcess'
import { SandboxFiles } from '../e2e/sandboxFiles'
import { freePort, LocalStack } from '../e2e/stack'
import { defaultLanguageTable } from '../src/contract/languageTable'
import { clientCapabilities } from '../src/sandbox/language/clientCapabilities'
import { launchCommand } from '../src/sandbox/language/languageTable'
import { freshPage } from './freshPage'
import { type Figure, median, percentile } from './table'

/**
 * Code intelligence figures (issue 40), in headless Chromium against the real stack and the real
 * servers: completion from the key to the list's rows, beside the same server spoken to over
 * plain stdio inside the same sandbox (bench/lspFloor.mjs, the floor); diagnostics after typing
 * stops; a cold start from opening a file to its first squiggle; the servers' memory.
 */

const home = '/home/user'
const folder = `${home}/lspbench`
const completions = Number(process.env.BENCH_LSP_COMPLETIONS ?? 200)
const edits = 20
const colds = 3

interface Language {
  key: 'python' | 'typescript'
  file: string
  languageId: string
  text: string
  /** A line typed at the end that adds one error. */
  badLine: (i: number) => string
}

/** About 2,000 lines: an error on the first line (on screen at open), a class, many functions, `p.` last. */
function pythonSource(): string {
  const lines = [
    'print(undefined_name)',
    'class Point:',
    '    def __init__(self, x: int, y: int) -> None:',
    '        self.x = x',
    '        self.y = y',
    '',
    '    def norm(self) -> float:',
    '        return (self.x ** 2 + self.y ** 2) ** 0.5',
    '',
  ]
  for (let i = 0; lines.length < 1_995; i++)
    lines.push(
      `def f${i}(a: int, b: str = "") -> int:`,
      `    """Adds ${i}."""`,
      `    return a + ${i} + len(b)`,
      '',
    )
  lines.push('p = Point(1, 2)', 'p.')
  return lines.join('\n')
}

function typescriptSource(): string {
  const lines = [
    'const broken: number = "x"',
    'export class Point {',
    '  constructor(public x: number, public y: number) {}',
    '  norm(): number {',
    '    return Math.hypot(this.x, this.y)',
    '  }',
    '}',
    '',
  ]
  for (let i = 0; lines.length < 1_995; i++)
    lines.push(
      `/** Adds ${i}. */`,
      `export function f${i}(a: number, b = ''): number {`,
      `  return a + ${i} + b.length`,
      '}',
      '',
    )
  lines.push('const p = new Point(1, 2)', 'p.')
  return lines.join('\n')
}

const languages: Language[] = [
  {
    key: 'python',
    file: 'big.py',
    languageId: 'python',
    text: pythonSource(),
    badLine: (i) => `q${i} = undefined_${i}`,
  },
  {
    key: 'typescript',
    file: 'big.ts',
    languageId: 'typescript',
    text: typescriptSource(),
    badLine: (i) => `const q${i}: number = "x${i}"`,
  },
]

/** The position right after the last line's `p.`. */
const lastPosition = (text: string) => {
  const lines = text.split('\n')
  return { line: lines.length - 1, character: (lines.at(-1) ?? '').length }
}

export async function lspFigures(): Promise<Figure[]> {
  const stack = new LocalStack(await freePort())
  await stack.start()
  const browser = await chromium.launch(chromiumLaunchOptions())
  try {
    const files = await SandboxFiles.of(stack)
    const run = async (script: string) => {
      const process = await startRuntimeProcess(stack, files.sandboxId, {
        process: { cmd: '/bin/bash', args: ['-l', '-c', script] },
      })
      return process.ended
    }
    await files.write(
      `${folder}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: { strict: true, target: 'es2022', module: 'esnext' },
        include: ['*.ts'],
      }),
    )
    for (const language of languages) await files.write(`${folder}/${language.file}`, language.text)
    await files.write('/tmp/lspFloor.mjs', readFileSync(join(import.meta.dirname, 'lspFloor.mjs'), 'utf8'))
    const killServers = () => run("pkill -9 -f 'pyright-langserver|tsc --lsp'; true")

    // The floor: the same server, command and capabilities, over plain stdio in the sandbox.
    const floor = new Map<string, { coldMs: number; completion: number[]; diagnosticsAfterEdit: number[] }>()
    for (const language of languages) {
      const config = defaultLanguageTable[language.key]
      if (!config) throw new Error(`no default server for ${language.key}`)
      await files.write(
        `/tmp/lspFloor-${language.key}.json`,
        JSON.stringify({
          command: launchCommand(config),
          cwd: home,
          rootUri: `file://${home}`,
          uri: `file://${folder}/${language.file}`,
          languageId: language.languageId,
          text: language.text,
          position: lastPosition(language.text),
          requests: completions,
          badLines: Array.from({ length: edits }, (_, i) => language.badLine(i)),
          capabilities: clientCapabilities,
          settings: config.settings,
          initializationOptions: config.initializationOptions,
        }),
      )
      const status = await run(
        `cd ${home} && node /tmp/lspFloor.mjs /tmp/lspFloor-${language.key}.json > /tmp/lspFloor-${language.key}.out`,
      )
      if (status !== 'exit status 0') throw new Error(`the floor client for ${language.key} ended: ${status}`)
      floor.set(language.key, JSON.parse(await files.read(`/tmp/lspFloor-${language.key}.out`)))
    }
    await killServers()

    // Cold start: a new page (so new servers) opens the file, until its first squiggle shows.
    const cold = new Map<string, number[]>()
    for (const language of languages) {
      const samples: number[] = []
      for (let i = 0; i < colds; i++) {
        await killServers()
        const page = await freshPage(browser, 'lsp')
        await new WorkbenchPage(page).goto(stack.link())
        const editor = new EditorPage(page)
        const path = `lspbench/${language.file}`
        await editor.showOpenDialog()
        await editor.openDialog.getByRole('combobox').fill(path)
        const t = Date.now()
        await editor.openDialog.getByRole('option', { name: `Open ${path}` }).click()
        await editor.editor.locator('.squiggly-error').first().waitFor({ timeout: 120_000 })
        samples.push(Date.now() - t)
        await page.close()
      }
      cold.set(language.key, samples)
    }
    await killServers()

    // Warm: one page with both files open.
    const page = await freshPage(browser, 'lsp')
    await new WorkbenchPage(page).goto(stack.link())
    const editor = new EditorPage(page)
    await page.evaluate(watchKeysAndRows)
    const ide = new Map<string, { completion: number[]; diagnostics: number[] }>()
    for (const language of languages) {
      await editor.open(`lspbench/${language.file}`)
      await editor.editor.locator('.squiggly-error').first().waitFor({ timeout: 120_000 })
      ide.set(language.key, {
        completion: await completionLatencies(page, editor),
        diagnostics: await diagnosticsLatencies(page, editor, language),
      })
    }
    // Both servers are up: their resident memory, as ps sees it in the sandbox.
    await run("ps -eo rss=,args= | grep -E 'pyright-langserver|tsc --lsp' | grep -v grep > /tmp/lspbench-rss")
    const rss = (await files.read('/tmp/lspbench-rss'))
      .split('\n')
      .filter((line) => line.trim() && !line.includes('bash -l -c') && !line.includes('PATH='))
      .map((line) => ({ kib: Number.parseInt(line.trim(), 10), args: line.trim().replace(/^\d+\s+/, '') }))
    const memoryOf = (pattern: RegExp) =>
      rss.filter((p) => pattern.test(p.args)).reduce((sum, p) => sum + p.kib, 0) / 1024

    const figures: Figure[] = []
    for (const language of languages) {
      const measured = ide.get(language.key)
      const base = floor.get(language.key)
      if (!measured || !base) continue
      const name = defaultLanguageTable[language.key]?.name ?? language.key
      const ratio = median(measured.completion) / median(base.completion)
      figures.push(
        {
          name: `${name}: completion, Ctrl+Space to the list's rows (2,000-line file)`,
          median: median(measured.completion),
          unit: 'ms',
          runs: measured.completion.length,
          note: `p95 ${percentile(measured.completion, 95).toFixed(1)} ms (goal 150); ratio to the floor ${ratio.toFixed(2)} (goal 1.25)`,
        },
        {
          name: `${name}: completion over plain stdio in the sandbox (floor)`,
          median: median(base.completion),
          unit: 'ms',
          runs: base.completion.length,
          note: `p95 ${percentile(base.completion, 95).toFixed(1)} ms; the same server, command and capabilities`,
        },
        {
          name: `${name}: diagnostics after typing stops, to the count in the status bar`,
          median: median(measured.diagnostics),
          unit: 'ms',
          runs: measured.diagnostics.length,
          note: `p95 ${percentile(measured.diagnostics, 95).toFixed(1)} ms (goal 1,000); ratio to the floor ${(median(measured.diagnostics) / median(base.diagnosticsAfterEdit)).toFixed(2)}`,
        },
        {
          name: `${name}: diagnostics after the same edit over plain stdio (floor)`,
          median: median(base.diagnosticsAfterEdit),
          unit: 'ms',
          runs: base.diagnosticsAfterEdit.length,
          note: `p95 ${percentile(base.diagnosticsAfterEdit, 95).toFixed(1)} ms; the line sent whole, diagnostics asked at once`,
        },
        {
          name: `${name}: cold start, opening the file to its first squiggle`,
          median: median(cold.get(language.key) ?? []),
          unit: 'ms',
          runs: cold.get(language.key)?.length ?? 0,
          note: `goal 5,000; the floor's start to first diagnostics ${base.coldMs.toFixed(0)} ms`,
        },
      )
    }
    figures.push(
      {
        name: 'Pyright: resident memory with the file open',
        median: memoryOf(/pyright/),
        unit: 'MiB',
        runs: 1,
      },
      {
        name: 'TypeScript 7 (tsc --lsp): resident memory with the file open',
        median: memoryOf(/tsc/),
        unit: 'MiB',
        runs: 1,
      },
    )
    return figures
  } finally {
    await browser.close()
    await stack.dispose()
  }
}

/**
 * Puts the keyboard in the editor by a click near its top left. (The centre of `.view-lines` of a
 * long file is far below what is shown, where a click lands on no line.)
 */
const focusEditor = (editor: EditorPage) => editor.editor.click({ position: { x: 200, y: 20 } })

interface Marks {
  /** When Ctrl+Space went down. */
  invoked?: number
  /** When the suggest list's first row was in the DOM after it. */
  rows?: number
  /** The last key that went down. */
  lastKey?: number
}

/** Runs in the page: records when keys go down and when the suggest list's rows appear. */
function watchKeysAndRows(): void {
  const marks: Marks = {}
  ;(globalThis as unknown as { __marks: Marks }).__marks = marks
  document.addEventListener(
    'keydown',
    (e) => {
      marks.lastKey = performance.now()
      if (e.ctrlKey && e.code === 'Space') {
        marks.invoked = performance.now()
        marks.rows = undefined
      }
    },
    true,
  )
  // Shown: laid out where it goes (Monaco adds its `visible` class 100 ms later, for its own events).
  const shown = () => {
    const widget = document.querySelector<HTMLElement>('.suggest-widget')
    return (
      !!widget &&
      widget.style.display !== 'none' &&
      widget.style.visibility !== 'hidden' &&
      !!widget.querySelector('.monaco-list-row')
    )
  }
  new MutationObserver(() => {
    if (marks.invoked !== undefined && marks.rows === undefined && shown()) marks.rows = performance.now()
  }).observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['class', 'style'],
  })
}

async function completionLatencies(page: Page, editor: EditorPage): Promise<number[]> {
  await focusEditor(editor)
  await page.keyboard.press('Control+End')
  const widget = editor.editor.locator('.suggest-widget .monaco-list-row')
  const samples: number[] = []
  for (let i = 0; i < completions; i++) {
    await page.keyboard.press('Control+Space')
    await page.waitForFunction(() => (globalThis as unknown as { __marks: Marks }).__marks.rows !== undefined)
    samples.push(
      await page.evaluate(() => {
        const marks = (globalThis as unknown as { __marks: Marks }).__marks
        return (marks.rows ?? Number.NaN) - (marks.invoked ?? Number.NaN)
      }),
    )
    await page.keyboard.press('Escape')
    await widget.first().waitFor({ state: 'hidden' })
  }
  return samples
}

/** The error count the status bar shows. */
const errorCount = (page: Page) =>
  page.evaluate(() => {
    const label = document.querySelector('[aria-label^="Problems:"]')?.getAttribute('aria-label') ?? ''
    return Number(/(\d+) error/.exec(label)?.[1] ?? 0)
  })

async function diagnosticsLatencies(page: Page, editor: EditorPage, language: Language): Promise<number[]> {
  const samples: number[] = []
  await focusEditor(editor)
  for (let i = 0; i < edits; i++) {
    await page.keyboard.press('Control+End')
    await page.waitForFunction(() => document.querySelector('[aria-label^="Problems:"]'))
    const before = await errorCount(page)
    // No suggestion open to take the Enter.
    await page.keyboard.press('Escape')
    await page.keyboard.press('Enter')
    await page.keyboard.type(language.badLine(i))
    await page.waitForFunction(
      (count) => {
        const label = document.querySelector('[aria-label^="Problems:"]')?.getAttribute('aria-label') ?? ''
        const now = Number(/(\d+) error/.exec(label)?.[1] ?? 0)
        const marks = (globalThis as unknown as { __marks: Marks & { counted?: number } }).__marks
        if (now > count) marks.counted ??= performance.now()
        return now > count
      },
      before,
      { polling: 'raf', timeout: 30_000 },
    )
    samples.push(
      await page.evaluate(() => {
        const marks = (globalThis as unknown as { __marks: Marks & { counted?: number } }).__marks
        const took = (marks.counted ?? Number.NaN) - (marks.lastKey ?? Number.NaN)
        marks.counted = undefined
        return took
      }),
    )
    // Take the line away again, and wait for the count to come back.
    await page.keyboard.press('Escape')
    await page.keyboard.press('Shift+Home')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    await page.waitForFunction(
      (count) => {
        const label = document.querySelector('[aria-label^="Problems:"]')?.getAttribute('aria-label') ?? ''
        return Number(/(\d+) error/.exec(label)?.[1] ?? 0) <= count
      },
      before,
      { timeout: 30_000 },
    )
  }
  return samples
}
