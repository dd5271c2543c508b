// Editor figures (the explorer/editor issue): how much Monaco's lazy chunk weighs, from the
// build's own output files, and how long it takes from the click that opens a file to an editable
// editor, in headless Chromium against the real stack.
//
// The IDE is built here (the project's vite.config.ts, into a temporary folder, with a manifest
// that says which files the lazy chunk pulls in) and served on the platform's own origin in front
// of its handler, so what is measured is exactly the current sources, not a stale dist/ide.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { type Browser, chromium } from '@playwright/test'
import { build } from 'vite'
import { chromiumLaunchOptions } from '../e2e/chromium'
import { ideLink } from '../server/platform/access/ideLink'
import type { RunningPlatform } from '../server/platform/platformServer'
import type { TestPlatform } from '../server/platform/testing/platformFixture'
import { serveInFront, startBenchPlatform } from './benchStack'
import { type Figure, median } from './table'

const projectRoot = join(import.meta.dirname, '..')
const kib = 1024
const runs = 5

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  css?: string[]
}
type Manifest = Record<string, ManifestChunk>

/** Builds the IDE as `vite build` does, with a manifest, into `outDir`. */
async function buildIde(outDir: string): Promise<Manifest> {
  await build({
    configFile: join(projectRoot, 'vite.config.ts'),
    root: projectRoot,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 8192,
    },
  })
  return JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest
}

/** Every file a chunk loads with it (its static imports, transitively, and their CSS). */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key]
  if (!chunk || into.has(chunk.file)) return into
  into.add(chunk.file)
  for (const css of chunk.css ?? []) into.add(css)
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into)
  return into
}

function weigh(outDir: string, files: Iterable<string>): { bytes: number; gzip: number; count: number } {
  let bytes = 0
  let gzip = 0
  let count = 0
  for (const file of files) {
    const data = readFileSync(join(outDir, file))
    bytes += data.length
    gzip += gzipSync(data).length
    count++
  }
  return { bytes, gzip, count }
}

/** The lazy chunk: what opening the first file downloads beyond the entry, and the workers. */
function sizeFigures(outDir: string, manifest: Manifest): Figure[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
  const monacoKey = Object.keys(manifest).find((key) => manifest[key]?.src?.endsWith('editor/monacoSetup.ts'))
  if (!entryKey || !monacoKey) throw new Error('the manifest has no entry or no monacoSetup chunk')
  const entry = closure(manifest, entryKey)
  const lazy = [...closure(manifest, monacoKey)].filter((file) => !entry.has(file))
  const lazySize = weigh(outDir, lazy)
  const entrySize = weigh(outDir, entry)
  const entryHasMonaco = [...entry].some((file) =>
    readFileSync(join(outDir, file), 'utf8').includes('StandaloneCodeEditor'),
  )
  const assets = readdirSync(join(outDir, 'assets'))
  const worker = (name: string) => {
    const file = assets.find((f) => f.startsWith(`${name}.worker-`) && f.endsWith('.js'))
    return file ? statSync(join(outDir, 'assets', file)).size / kib : Number.NaN
  }
  return [
    {
      name: 'Monaco lazy chunk (JS + CSS, first file)',
      median: lazySize.bytes / kib,
      unit: 'KiB',
      runs: 1,
      note: `${lazySize.count} files, gzip ${(lazySize.gzip / kib).toFixed(0)} KiB`,
    },
    {
      name: 'IDE entry (before any file opens)',
      median: entrySize.bytes / kib,
      unit: 'KiB',
      runs: 1,
      note: `gzip ${(entrySize.gzip / kib).toFixed(0)} KiB; Monaco in it: ${entryHasMonaco ? 'yes' : 'no'}`,
    },
    {
      name: 'Monaco editor worker',
      median: worker('editor'),
      unit: 'KiB',
      runs: 1,
      note: 'started with the editor',
    },
    {
      name: 'Monaco TypeScript worker',
      median: worker('ts'),
      unit: 'KiB',
      runs: 1,
      note: 'only when a .ts/.js file opens',
    },
  ]
}

/** Serves the built IDE for its own paths on the platform's origin; the rest is the platform's. */
function serveIde(platform: RunningPlatform, dir: string): void {
  serveInFront(
    platform,
    dir,
    (url) => (url.startsWith('/assets/') || /^\/sandbox\/[^/]+$/.test(url) ? url : undefined),
    {
      single: true,
    },
  )
}

/** A TypeScript file of a few hundred lines whose first line is `marker`. */
function sourceFile(marker: string): string {
  const lines = [`// ${marker}`]
  for (let i = 0; i < 300; i++) lines.push(`export function f${i}(a: number): number { return a * ${i} }`)
  return `${lines.join('\n')}\n`
}

/** Click-to-editable times: the first file of a fresh page (Monaco loads) and the next one. */
async function openTimes(browser: Browser, platform: RunningPlatform): Promise<Figure[]> {
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${platform.url}${path}`, {
      method,
      headers: { 'X-API-Key': 'bench', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const created = await api('POST', '/v2/sandboxes', {})
  if (!created.ok) throw new Error(`creating the sandbox: ${created.status} ${await created.text()}`)
  const { sandboxID } = (await created.json()) as { sandboxID: string }
  const { envdAccessToken } = (await (await api('GET', `/sandboxes/${sandboxID}`)).json()) as {
    envdAccessToken: string
  }
  const write = async (path: string, text: string) => {
    const res = await fetch(`${platform.url}/files?${new URLSearchParams({ path })}`, {
      method: 'POST',
      headers: {
        'X-Access-Token': envdAccessToken,
        'E2b-Sandbox-Id': sandboxID,
        'Content-Type': 'application/octet-stream',
      },
      body: text,
    })
    if (!res.ok) throw new Error(`writing ${path}: ${res.status} ${await res.text()}`)
  }

  const first: number[] = []
  const next: number[] = []
  for (let run = 0; run < runs; run++) {
    const paths = [`/home/user/bench-${run}-a.ts`, `/home/user/bench-${run}-b.ts`]
    for (const path of paths) await write(path, sourceFile(`marker ${path}`))
    // A new context each run: an empty cache, as a user's first visit, over loopback.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    // tsx names functions with an __name() helper; code sent to the page runs without it.
    await page.addInitScript('globalThis.__name = (f) => f')
    await page.goto(ideLink(platform.url, platform.ideToken.current(), `/sandbox/${sandboxID}`))
    await page.getByTestId('sandbox-state').getByText('Running').waitFor({ timeout: 30_000 })
    for (const [index, path] of paths.entries()) {
      await page.keyboard.press('Control+Shift+P')
      const palette = page.getByRole('dialog', { name: 'Command palette' })
      await palette.getByRole('combobox').fill('File: Open')
      await palette.getByRole('option', { name: 'File: Open…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Open file' })
      await dialog.getByRole('combobox').fill(path)
      const option = dialog.getByRole('option', { name: `Open ${path}` })
      await option.waitFor()
      await page.evaluate(() => {
        const w = window as unknown as { benchT0?: number }
        w.benchT0 = undefined
        document.addEventListener('pointerdown', () => (w.benchT0 = performance.now()), {
          capture: true,
          once: true,
        })
      })
      await option.click()
      const ms = await page.waitForFunction(
        (marker) => {
          const root = document.querySelector('.code-editor:not([hidden]) .monaco-editor')
          const text = root?.querySelector('.view-lines')?.textContent?.replace(/\u00a0/g, ' ') ?? ''
          // Monaco takes keys through an EditContext in Chromium (no textarea); the IDE marks read-only itself.
          const readOnly = document.querySelector('.editor-readonly')
          const t0 = (window as unknown as { benchT0?: number }).benchT0
          if (!text.includes(marker) || readOnly || t0 === undefined) return false
          return performance.now() - t0
        },
        `marker ${path}`,
        { polling: 'raf', timeout: 60_000 },
      )
      ;(index === 0 ? first : next).push((await ms.jsonValue()) as number)
    }
    await context.close()
  }
  const note = 'click in File: Open… → text shown and editable; headless Chromium, real stack'
  return [
    { name: 'Open a file, first (loads Monaco)', median: median(first), unit: 'ms', runs, note },
    { name: 'Open a file, next (Monaco loaded)', median: median(next), unit: 'ms', runs, note },
  ]
}

/** Editor figures: the lazy chunk's size and click-to-editable times. */
export async function editorFigures(): Promise<Figure[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-editor-ide-'))
  let stack: TestPlatform | undefined
  let browser: Browser | undefined
  try {
    const figures = sizeFigures(outDir, await buildIde(outDir))
    stack = await startBenchPlatform()
    const { platform } = stack
    serveIde(platform, outDir)
    browser = await chromium.launch(chromiumLaunchOptions())
    try {
      figures.push(...(await openTimes(browser, platform)))
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      console.error(`editor bench: opening files failed: ${message}`)
      figures.push({
        name: 'Open a file (failed)',
        median: Number.NaN,
        unit: '',
        runs: 0,
        note: message.slice(0, 120),
      })
    }
    return figures
  } finally {
    await browser?.close()
    await stack?.close()
    rmSync(outDir, { recursive: true, force: true })
  }
}
