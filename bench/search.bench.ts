import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../e2e/chromium'
import { ExplorerPage } from '../e2e/pages/ExplorerPage'
import { SearchPage } from '../e2e/pages/SearchPage'
import { SourceControlPage } from '../e2e/pages/SourceControlPage'
import { WorkbenchPage } from '../e2e/pages/WorkbenchPage'
import { runInSandbox } from '../e2e/runtimeProcess'
import { SandboxFiles } from '../e2e/sandboxFiles'
import { freePort, LocalStack } from '../e2e/stack'
import { gitEnv } from '../src/sandbox/git/gitCommand'
import { ripgrepArgs } from '../src/sandbox/search/searchCommands'
import { defaultMaxResults, type TextQuery } from '../src/sandbox/search/textQuery'
import { freshPage } from './freshPage'
import { type Figure, median, percentile } from './table'

/**
 * Search figures (issue 41), in headless Chromium against the real stack, ripgrep and git in the
 * sandbox: Find in Files over a tree of 100,000 files (about 1 GB), from Enter to the first result
 * row and to the whole search done, beside the same `rg` command run directly in the sandbox (the
 * floor); Go to File over the same tree, from each key to the list updated; the Source Control view
 * of a repository of 10,000 files with 1,000 changed, beside `git status` in the sandbox. Sizes
 * come from BENCH_SEARCH_FILES, BENCH_SEARCH_FILE_KB, BENCH_SCM_FILES and BENCH_SCM_CHANGED.
 */

/** A whole number from the environment, or its default; anything else is refused by name. */
function envCount(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number above 0, not "${raw}"`)
  return value
}

/** The sizes, read when the group runs (a bad one must not stop the other groups from loading). */
function benchSizes() {
  const fileCount = envCount('BENCH_SEARCH_FILES', 100_000)
  const scmFiles = envCount('BENCH_SCM_FILES', 10_000)
  const scmChanged = envCount('BENCH_SCM_CHANGED', Math.max(1, Math.round(scmFiles / 10)))
  if (scmChanged > scmFiles)
    throw new Error(`BENCH_SCM_CHANGED (${scmChanged}) is more than BENCH_SCM_FILES (${scmFiles})`)
  return {
    fileCount,
    fileKiB: envCount('BENCH_SEARCH_FILE_KB', 10),
    /** Once in a few hundred files (0.3%): its results stay far under the cap, so the search runs to its end. */
    rareFiles: Math.max(3, Math.round(fileCount * 0.003)),
    scmFiles,
    scmChanged,
  }
}

const searches = 5
const goToRounds = 5
const scmPages = 3

/** The tree's folder in the home (left out of the repository by its .gitignore). */
const treeFolder = 'searchbench'
const scmFolder = 'scmbench'
/** In a few hundred files (see benchSizes). */
const rareWord = 'quetzalcoatlus'
/** In one line of fifty, so in nearly every file: the cap (20,000 results) stops it. */
const commonWord = 'lorem'
/** Six letters of "widgetFactory…", typed one by one in Go to File. */
const goToQuery = 'wdgfac'

const n = (value: number) => value.toLocaleString('en')
const plural = (count: number, word: string) => `${n(count)} ${word}${count === 1 ? '' : 's'}`
/** One argument for bash, single-quoted. */
const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`

/** The query as the view asks it with the form's defaults (SearchModel.query): plain text, any case. */
const viewQuery = (pattern: string): TextQuery => ({
  pattern,
  isRegex: false,
  matchCase: false,
  wholeWord: false,
  include: [],
  exclude: [],
  includeIgnored: false,
})

/** Git's status as SourceControl reads it, with the environment every git command of the IDE has. */
const gitStatusArgs = ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all']
const gitEnvPrefix = Object.entries(gitEnv)
  .map(([key, value]) => `${key}=${shellQuote(value)}`)
  .join(' ')

export async function searchFigures(): Promise<Figure[]> {
  const { fileCount, fileKiB, rareFiles, scmFiles, scmChanged } = benchSizes()
  const stack = new LocalStack(await freePort())
  await stack.start()
  const browser = await chromium.launch(chromiumLaunchOptions())
  try {
    const files = await SandboxFiles.of(stack)
    const sh = async (script: string) => (await runInSandbox(stack, files.sandboxId, script)).stdout
    const home = (await sh('printf %s "$HOME"')).trim()
    if (!home) throw new Error('the sandbox did not say where its home is')
    const missing = (
      await sh('for p in rg git python3; do command -v "$p" > /dev/null || echo "$p"; done')
    ).trim()
    if (missing)
      throw new Error(`the sandbox lacks ${missing.split('\n').join(', ')}: these figures need them`)

    // The tree, made before any page is open (its 100,000 new files would flood a page's watch).
    await files.write('/tmp/searchTree.py', readFileSync(join(import.meta.dirname, 'searchTree.py'), 'utf8'))
    const made = Date.now()
    const out = await sh(
      `python3 /tmp/searchTree.py ${shellQuote(`${home}/${treeFolder}`)} ${fileCount} ${fileKiB} ${rareWord} ${rareFiles} ${commonWord}`,
    )
    const tree = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { bytes: number; rareFiles: number }
    console.error(
      `search bench: ${n(fileCount)} files, ${(tree.bytes / 2 ** 30).toFixed(2)} GiB made in ${((Date.now() - made) / 1000).toFixed(0)} s`,
    )

    const page = await freshPage(browser, 'search')
    await new WorkbenchPage(page).goto(stack.link())
    const find = await findInFiles(page, (pattern) => rgFloor(sh, home, pattern), tree.rareFiles)
    const goTo = await goToFile(page)
    await page.context().close()

    const scm = await sourceControl(browser, stack, sh, home, scmFiles, scmChanged)

    const size = `${n(fileCount)} files, ${(tree.bytes / 2 ** 30).toFixed(2)} GiB`
    const rareDone = `"${plural(tree.rareFiles, 'result')} in ${plural(tree.rareFiles, 'file')}."`
    return [
      {
        name: `Find in Files: Enter to the first result row ("${rareWord}", ${size})`,
        median: median(find.rareFirst),
        unit: 'ms',
        runs: find.rareFirst.length,
        note: `goal 300; the word is once in ${n(tree.rareFiles)} files spread over the tree`,
      },
      {
        name: `Find in Files: Enter to the whole search done (${rareDone})`,
        median: median(find.rareDone),
        unit: 'ms',
        runs: find.rareDone.length,
        note: `ratio to the same rg in the sandbox ${(median(find.rareDone) / median(find.floor)).toFixed(2)} (goal 1.3)`,
      },
      {
        name: 'the same `rg --json` command run directly in the sandbox, to /dev/null (floor)',
        median: median(find.floor),
        unit: 'ms',
        runs: find.floor.length,
        note: 'the argv of ripgrepArgs, in the home; the IDE starts it through a login bash',
      },
      {
        name: `Find in Files: Enter to the first result row ("${commonWord}", in nearly every file)`,
        median: median(find.commonFirst),
        unit: 'ms',
        runs: find.commonFirst.length,
        note: `goal 300; stopped at the cap (${n(defaultMaxResults)} results)`,
      },
      {
        name: `Go to File: Ctrl+P to the list of ${n(fileCount)} files loaded`,
        median: goTo.listed,
        unit: 'ms',
        runs: 1,
        note: '`rg --files` in the sandbox, streamed to the page; the dialog’s code loading included',
      },
      {
        name: `Go to File: a key to the list updated ("${goToQuery}" typed letter by letter, ${n(fileCount)} files)`,
        median: median(goTo.settled),
        unit: 'ms',
        runs: goTo.settled.length,
        note: `p95 ${percentile(goTo.settled, 95).toFixed(1)} ms (goal 50); first change p50 ${median(goTo.first).toFixed(1)} ms${goTo.unchanged ? `; ${goTo.unchanged} keys changed nothing` : ''}`,
      },
      {
        name: `Source control: Ctrl+Shift+G to "Changes, ${plural(scmChanged, 'file')}" (${n(scmFiles)} files, fresh page)`,
        median: median(scm.fromKey),
        unit: 'ms',
        runs: scm.fromKey.length,
        note: 'goal 1,000; the status is read when the sandbox runs (for the explorer), so mostly the view',
      },
      {
        name: 'Source control: page load to the same changes listed',
        median: median(scm.fromLoad),
        unit: 'ms',
        runs: scm.fromLoad.length,
        note: 'from navigation, the workbench, the sandbox and the status included',
      },
      {
        name: '`git status --porcelain=v2 -z --branch --untracked-files=all` in the sandbox (floor)',
        median: median(scm.floor),
        unit: 'ms',
        runs: scm.floor.length,
        note: 'the status SourceControl runs (it asks `rev-parse` and the remotes too)',
      },
    ]
  } finally {
    await browser.close()
    await stack.dispose()
  }
}

type Sh = (script: string) => Promise<string>

/** The view's ripgrep command run in the sandbox's home, straight to /dev/null: its time in ms. */
async function rgFloor(sh: Sh, home: string, pattern: string): Promise<number> {
  const args = ripgrepArgs(viewQuery(pattern)).map(shellQuote).join(' ')
  const out = await sh(`
    cd ${shellQuote(home)} || exit 1
    s=$(date +%s%N)
    rg ${args} > /dev/null
    rc=$?
    e=$(date +%s%N)
    echo "$rc $(( (e - s) / 1000 ))"
  `)
  const [rc, micros] = out.trim().split(' ').map(Number)
  if (rc !== 0 || micros === undefined) throw new Error(`rg in the sandbox ended with ${rc} (${out.trim()})`)
  return micros / 1000
}

interface SearchMarks {
  /** When Enter went down in the Search box. */
  enter?: number
  /** When a result row not on screen before the Enter was. */
  firstRow?: number
  /** The status said "Searching…" since the Enter. */
  searching?: boolean
  /** When the status said what the search came to ("3 results in 3 files."). */
  done?: number
  summary?: string
  /** The rows on screen at the Enter (the last search's). */
  stale?: WeakSet<Element>
}

/** Runs in the page: records Enter in the Search box, the first new result row, and the done summary. */
function watchSearch(): void {
  const marks: SearchMarks = {}
  ;(globalThis as unknown as { __search: SearchMarks }).__search = marks
  const rows = () => document.querySelectorAll('[role="tree"][aria-label="Search results"] [role="treeitem"]')
  document.addEventListener(
    'keydown',
    (e) => {
      const box = e.target as HTMLElement | null
      if (e.key !== 'Enter' || box?.getAttribute('aria-label') !== 'Search' || box.tagName !== 'INPUT') return
      marks.enter = performance.now()
      marks.firstRow = undefined
      marks.searching = false
      marks.done = undefined
      marks.summary = undefined
      marks.stale = new WeakSet(rows())
    },
    true,
  )
  new MutationObserver(() => {
    if (marks.enter === undefined) return
    const now = performance.now()
    if (marks.firstRow === undefined)
      for (const row of rows())
        if (!marks.stale?.has(row)) {
          marks.firstRow = now
          break
        }
    const status = document.querySelector('.search-view .search-status')?.textContent ?? ''
    if (status.startsWith('Searching')) marks.searching = true
    else if (
      marks.searching &&
      marks.done === undefined &&
      /^[\d,]+ results? in [\d,]+ files?\.$/.test(status)
    ) {
      marks.done = now
      marks.summary = status
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true })
}

/** Presses Enter in the Search box and waits for the search's end: its first row and done, from the key. */
async function searchOnce(
  page: Page,
  search: SearchPage,
): Promise<{ first: number; done: number; summary: string }> {
  await search.query.focus()
  await page.keyboard.press('Enter')
  const handle = await page.waitForFunction(
    () => {
      const marks = (globalThis as unknown as { __search: SearchMarks }).__search
      const view = document.querySelector('.search-view')
      const failed = view?.querySelector('.search-error-line, .search-error')?.textContent
      if (failed) return { error: failed }
      const status = view?.querySelector('.search-status')?.textContent ?? ''
      if (marks.searching && /^(No results|Search cancelled)/.test(status)) return { error: status }
      if (marks.done === undefined || marks.firstRow === undefined || marks.enter === undefined) return false
      return {
        first: marks.firstRow - marks.enter,
        done: marks.done - marks.enter,
        summary: marks.summary ?? '',
      }
    },
    null,
    { polling: 50, timeout: 300_000 },
  )
  const result = (await handle.jsonValue()) as
    | { first: number; done: number; summary: string }
    | { error: string }
  if ('error' in result) throw new Error(`the search did not come to results: ${result.error}`)
  return result
}

/** Find in Files for the rare word (to its end, beside rg's floor, taken in turns) and the common one (to its first row). */
async function findInFiles(page: Page, floor: (pattern: string) => Promise<number>, rareCount: number) {
  const search = new SearchPage(page)
  await search.show()
  await page.evaluate(watchSearch)
  const rareFirst: number[] = []
  const rareDone: number[] = []
  const floorSamples: number[] = []
  // Typed in the box: the view would search 300 ms after typing stops; Enter searches at once.
  await search.query.fill(rareWord)
  // A search and an rg run first, untimed: the tree in the page cache for both alike.
  const warm = await searchOnce(page, search)
  const expected = `${plural(rareCount, 'result')} in ${plural(rareCount, 'file')}.`
  if (warm.summary !== expected)
    throw new Error(
      `the view found "${warm.summary}"; the tree has "${rareWord}" once in each of ${rareCount} files`,
    )
  await floor(rareWord)
  for (let i = 0; i < searches; i++) {
    const run = await searchOnce(page, search)
    rareFirst.push(run.first)
    rareDone.push(run.done)
    floorSamples.push(await floor(rareWord))
  }
  const commonFirst: number[] = []
  await search.query.fill(commonWord)
  await searchOnce(page, search)
  for (let i = 0; i < searches; i++) commonFirst.push((await searchOnce(page, search)).first)
  return { rareFirst, rareDone, floor: floorSamples, commonFirst }
}

interface GoToMarks {
  /** When the last key went down in the box. */
  key?: number
  /** The first and last change to the list since. */
  first?: number
  last?: number
}

/** Runs in the page on Go to File's listbox: records each key in its box and the list's changes after it. */
function watchGoToFile(list: Element): void {
  const input = list.closest('[role="dialog"]')?.querySelector('input')
  if (!input) throw new Error('Go to File has no input beside its list')
  const marks: GoToMarks = {}
  ;(globalThis as unknown as { __goto: GoToMarks }).__goto = marks
  input.addEventListener(
    'keydown',
    () => {
      marks.key = performance.now()
      marks.first = undefined
      marks.last = undefined
    },
    true,
  )
  // Rows and their text (cmdk's selection and the list's height are attributes, left out).
  new MutationObserver(() => {
    if (marks.key === undefined) return
    const now = performance.now()
    marks.first ??= now
    marks.last = now
  }).observe(list, { childList: true, subtree: true, characterData: true })
}

/** Go to File: Ctrl+P until the files are listed, then each key of the query to the list updated, in rounds. */
async function goToFile(page: Page) {
  const search = new SearchPage(page)
  const explorer = new ExplorerPage(page)
  const hint = search.goToFile.getByText('Type a few letters of a file’s name.')
  const failed = search.goToFile.getByRole('alert')
  /** Opens Go to File (from the explorer: a terminal keeps Ctrl+P) and waits for the list of files. */
  const open = async (timeout: number) => {
    // The Explorer's view (Find in Files left the Search view shown).
    await page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { name: 'Explorer' }).click()
    await explorer.tree.focus()
    await search.openGoToFile()
    // While it lists, cmdk's progressbar says "Listing the workspace’s files…"; then the hint.
    await hint.or(failed).waitFor({ timeout })
    if (await failed.isVisible()) throw new Error(`Go to File: ${await failed.textContent()}`)
  }
  const t = Date.now()
  await open(300_000)
  const listed = Date.now() - t
  await page.keyboard.press('Escape')
  await search.goToFile.waitFor({ state: 'hidden' })

  const settled: number[] = []
  const first: number[] = []
  let unchanged = 0
  for (let round = 0; round < goToRounds; round++) {
    await open(60_000)
    await search.goToFile.getByRole('listbox').evaluate(watchGoToFile)
    for (const letter of goToQuery) {
      await page.keyboard.press(letter)
      // The list is taken as updated once it has been still for 150 ms (a key that changes nothing: 1 s).
      const handle = await page.waitForFunction(
        () => {
          const marks = (globalThis as unknown as { __goto: GoToMarks }).__goto
          const now = performance.now()
          if (marks.key === undefined) return false
          if (marks.last === undefined) return now - marks.key > 1000 ? { changed: false } : false
          if (now - marks.last < 150) return false
          return {
            changed: true,
            first: (marks.first ?? marks.last) - marks.key,
            last: marks.last - marks.key,
          }
        },
        null,
        { polling: 20, timeout: 30_000 },
      )
      const sample = (await handle.jsonValue()) as
        | { changed: false }
        | { changed: true; first: number; last: number }
      if (sample.changed) {
        settled.push(sample.last)
        first.push(sample.first)
      } else unchanged++
    }
    if ((await search.goToFile.getByRole('option').count()) === 0)
      throw new Error(`Go to File found no file for "${goToQuery}"`)
    await page.keyboard.press('Escape')
    await search.goToFile.waitFor({ state: 'hidden' })
  }
  if (settled.length === 0) throw new Error('Go to File: no key changed the list')
  return { listed, settled, first, unchanged }
}

/** A repository of `scmFiles` committed, `scmChanged` of them changed; the view on fresh pages, and git's own status. */
async function sourceControl(
  browser: Browser,
  stack: LocalStack,
  sh: Sh,
  home: string,
  scmFiles: number,
  scmChanged: number,
) {
  const every = Math.max(1, Math.floor(scmFiles / scmChanged))
  await sh(`
    set -e
    cd ${shellQuote(home)}
    printf '%s\\n' '.*' '!.gitignore' '/${treeFolder}/' > .gitignore
    python3 /tmp/searchTree.py ${shellQuote(`${home}/${scmFolder}`)} ${scmFiles} 2 > /dev/null
    git init -q
    git add -A
    git -c user.name=Bench -c user.email=bench@example.com commit -qm 'the bench repository'
    # No entry left racily clean (as new as the index): each status would read it again.
    sleep 1
    git update-index -q --refresh
    find ${scmFolder} -type f | sort | awk 'NR % ${every} == 0' | head -n ${scmChanged} |
      while IFS= read -r f; do echo 'changed by the bench' >> "$f"; done
  `)
  const statusLine = `${gitEnvPrefix} git ${gitStatusArgs.join(' ')}`
  const listed = (
    await sh(
      `cd ${shellQuote(home)} && ${statusLine} | tr '\\0' '\\n' | grep -v '^#' | cut -c1 | sort | uniq -c`,
    )
  ).trim()
  if (listed !== `${scmChanged} 1`)
    throw new Error(
      `git status should list ${scmChanged} changed files and nothing else; it lists (count, kind): ${listed}`,
    )

  // The floor: the same status, after one untimed.
  const floor: number[] = []
  for (let i = 0; i <= scmPages; i++) {
    const out = await sh(`
      cd ${shellQuote(home)} || exit 1
      s=$(date +%s%N)
      ${statusLine} > /dev/null
      e=$(date +%s%N)
      echo $(( (e - s) / 1000 ))
    `)
    if (i > 0) floor.push(Number(out.trim()) / 1000)
  }

  const label = `Changes, ${plural(scmChanged, 'file')}`
  const fromKey: number[] = []
  const fromLoad: number[] = []
  for (let i = 0; i < scmPages; i++) {
    const page = await freshPage(browser, 'search')
    const loadStart = Date.now()
    await new WorkbenchPage(page).goto(stack.link())
    // From the key to the group's row shown, timed here (Playwright's wait polls each frame).
    const row = page.getByRole('treeitem', { name: label, exact: true })
    const key = Date.now()
    await page.keyboard.press('Control+Shift+G')
    await row.waitFor({ timeout: 120_000 }).catch(async (err: unknown) => {
      const shown = await new SourceControlPage(page).view.textContent().catch(() => '')
      throw new Error(
        `the Source Control view did not show "${label}" (${err instanceof Error ? err.message.split('\n')[0] : err}); it shows: ${shown?.slice(0, 300)}`,
      )
    })
    const at = Date.now()
    fromKey.push(at - key)
    fromLoad.push(at - loadStart)
    await page.context().close()
  }
  return { fromKey, fromLoad, floor }
}
