// The core of the browser tests, for the engines Playwright cannot drive: the workbench, a
// terminal's echo, the same shell after a reload, the explorer, the editor and its hot exit, code
// intelligence, Search, Source Control, pause and resume, and the embed's handshake with a
// command and its consent. Against the real stack, as the Chromium tests are; each test in a fresh profile.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest'
import { LocalStack } from '../localStack'
import { runInSandbox } from '../runtimeProcess'
import { SandboxFiles } from '../sandboxFiles'
import { EngineWorkbench } from './EngineWorkbench'
import type { EngineBrowser, EnginePage } from './enginePage'

const home = '/home/user'

/** The core flows in one engine, `launch` giving its browser. */
export function describeCoreFlows(engine: string, launch: () => Promise<EngineBrowser>): void {
  const artifacts = join(import.meta.dirname, '..', '..', 'test-results', 'engines', engine)

  describe(engine, () => {
    const stack = new LocalStack()
    let browser: EngineBrowser
    let page: EnginePage
    let wb: EngineWorkbench
    let files: SandboxFiles
    /** Runs a bash script in the home folder, as another client of the sandbox; its stdout. */
    const sh = async (script: string) => (await runInSandbox(stack, files.sandboxId, script)).stdout

    beforeAll(async () => {
      ;[browser] = await Promise.all([launch(), stack.start()])
      files = await SandboxFiles.of(stack)
    }, 90_000)
    afterAll(async () => {
      await browser?.close()
      await stack.dispose()
    })
    beforeEach(async (test) => {
      page = await browser.newPage()
      wb = new EngineWorkbench(page)
      // What the page showed when a test failed, beside the other browser tests' artifacts.
      onTestFailed(async () => {
        mkdirSync(artifacts, { recursive: true })
        const name = test.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)
        await page.screenshot(join(artifacts, `${name}.png`)).catch(() => {})
      })
    })

    it('opens the workbench; what is typed reaches the shell whole and in order', async () => {
      await wb.open(stack.link())
      await wb.run('echo en-$((6*7))', 'en-42')
      const line = 'the quick brown fox jumps over the lazy dog 0123456789'
      await wb.run(`echo "${line}" | rev`, line.split('').reverse().join(''))
    })

    it('finds the same shell, with its screen, after a reload', async () => {
      await wb.open(stack.link())
      await wb.run('echo shell=$$', /shell=\d+/)
      const pid = (await wb.terminalText()).match(/shell=(\d+)/)?.[1]
      await page.reload()
      await wb.waitForState('Running')
      await wb.terminalShows(`shell=${pid}`)
      await wb.run('echo again=$$', `again=${pid}`)
    })

    it('creates, renames and deletes in the explorer, each checked on disk', async () => {
      const folder = `${engine}-docs`
      const renamed = `${engine}-notes`
      await wb.open(stack.link())
      await wb.click('button', 'New folder')
      await page.keys(`${folder}\n`)
      await wb.shows('treeitem', folder)
      await expect.poll(() => files.stat(`${home}/${folder}`)).toMatchObject({ type: 'FILE_TYPE_DIRECTORY' })

      await wb.click('treeitem', folder)
      await page.press('F2')
      // The rename field starts with the whole name selected: typing replaces it.
      await page.keys(`${renamed}\n`)
      await wb.shows('treeitem', renamed)
      await expect.poll(() => files.stat(`${home}/${renamed}`)).toBeDefined()
      expect(await files.stat(`${home}/${folder}`)).toBeUndefined()

      await wb.click('treeitem', renamed)
      await page.press('Delete')
      await wb.shows('dialog', new RegExp(`^Delete ${renamed}`))
      await wb.click('button', 'Delete')
      await wb.gone('treeitem', renamed)
      expect(await files.stat(`${home}/${renamed}`)).toBeUndefined()
    })

    it('edits a file in the editor and saves it to disk', async () => {
      const file = `${engine}.txt`
      await files.write(`${home}/${file}`, 'first line\n')
      await wb.open(stack.link())
      await wb.click('treeitem', file)
      // Monaco draws spaces as non-breaking ones.
      await page.waitUntil(
        () =>
          document
            .querySelector('.monaco-editor .view-lines')
            ?.textContent?.replace(/\u00a0/g, ' ')
            .includes('first line'),
        [],
        30_000,
      )
      await page.click(() => document.querySelector('.monaco-editor .view-lines'))
      await page.press('End', { control: true })
      await page.keys(`typed in ${engine}`)
      await page.press('s', { control: true })
      await expect.poll(() => files.read(`${home}/${file}`)).toBe(`first line\ntyped in ${engine}`)
    })

    it('unsaved text comes back after the tab is lost without a chance to ask', async () => {
      const file = `${engine}_hot.txt`
      await files.write(`${home}/${file}`, 'on disk\n')
      await wb.open(stack.link())
      await wb.click('treeitem', file)
      await page.waitUntil(
        () => document.querySelector('.monaco-editor .view-lines')?.textContent?.includes('on'),
        [],
        30_000,
      )
      await page.click(() => document.querySelector('.monaco-editor .view-lines'))
      await page.press('End', { control: true })
      await page.keys(`unsaved in ${engine}`)
      // Kept in the browser (IndexedDB) within a second of typing, as the next page reads it.
      const backups = () =>
        page.evaluate(
          () =>
            new Promise<string[]>((resolve) => {
              const open = indexedDB.open('sandbox-ide-backups')
              open.onsuccess = () => {
                const db = open.result
                if (!db.objectStoreNames.contains('texts')) return resolve([])
                const all = db.transaction('texts').objectStore('texts').getAll()
                all.onsuccess = () => resolve(all.result as string[])
              }
              open.onerror = () => resolve([])
            }),
        )
      await expect
        .poll(async () => (await backups()).some((text) => text.includes(`unsaved in ${engine}`)), {
          timeout: 5_000,
        })
        .toBe(true)
      // The tab goes without asking (as a crash or a discarded tab does): the page's own guard is skipped.
      await page.evaluate(() =>
        window.addEventListener('beforeunload', (event) => event.stopImmediatePropagation(), {
          capture: true,
        }),
      )
      await page.reload()
      await wb.waitForState('Running')
      await wb.shows('tab', `${file} (unsaved)`, 30_000)
      await page.waitUntil(
        (typed: string) =>
          document
            .querySelector('.monaco-editor .view-lines')
            ?.textContent?.replace(/\u00a0/g, ' ')
            .includes(typed),
        [`unsaved in ${engine}`],
        30_000,
      )
      expect(await files.read(`${home}/${file}`)).toBe('on disk\n')
      await page.click(() => document.querySelector('.monaco-editor .view-lines'))
      await page.press('s', { control: true })
      await expect.poll(() => files.read(`${home}/${file}`)).toBe(`on disk\nunsaved in ${engine}`)
    })

    it('code intelligence: a Python error is underlined, and Ctrl+Space offers a class’s members', async () => {
      const file = `${engine}_intel.py`
      await files.write(
        `${home}/${file}`,
        'class Point:\n    def __init__(self) -> None:\n        self.abscissa = 1\n\nprint(not_defined)\nPoint().',
      )
      await wb.open(stack.link())
      await wb.click('treeitem', file)
      await page.waitUntil(() => document.querySelector('.monaco-editor .squiggly-error'), [], 60_000)
      await page.click(() => document.querySelector('.monaco-editor .view-lines'))
      await page.press('End', { control: true })
      await page.press('Space', { control: true })
      await page.waitUntil(
        () =>
          [...document.querySelectorAll('.suggest-widget.visible .monaco-list-row')].some((row) =>
            row.textContent?.includes('abscissa'),
          ),
        [],
        30_000,
      )
    })

    it('Search finds a word in 2 of 50 files, and lists those two only', async () => {
      const folder = `${engine}-haystack`
      const word = `${engine}quokka`
      await sh(`
        set -e
        mkdir -p ${folder}
        for i in $(seq 0 49); do echo "hay line $i" > ${folder}/f$i.txt; done
        echo "one ${word} here" > ${folder}/f7.txt
        echo "and ${word} there" > ${folder}/f31.txt
      `)
      await wb.open(stack.link())
      await wb.click('tab', 'Search')
      await wb.click('searchbox', 'Search')
      // Enter searches at once.
      await page.keys(`${word}\n`)
      await page.waitUntil(
        () =>
          document.querySelector('.search-status[role="status"]')?.textContent === '2 results in 2 files.',
        [],
        30_000,
      )
      const rows = await page.evaluate(() =>
        [
          ...document.querySelectorAll(
            '[role="tree"][aria-label="Search results"] [role="treeitem"][aria-level="1"]',
          ),
        ].map((row) => row.getAttribute('aria-label')),
      )
      expect(rows.sort()).toEqual([`${folder}/f31.txt, 1 result`, `${folder}/f7.txt, 1 result`])
    })

    it('Source Control lists a modified file, and its Commit button commits it (in git log)', async () => {
      const file = `${engine}-scm.txt`
      // A repository of the home folder with one commit, tracking this file only; its author set,
      // so the view does not ask for one.
      await files.write(`${home}/.gitignore`, `/*\n!/.gitignore\n!/${file}\n`)
      await files.write(`${home}/${file}`, 'one\n')
      await sh(
        'git init -q && git config user.name "Engine Test" && git config user.email engine@example.com ' +
          '&& git add -A && git commit -qm base',
      )
      try {
        await files.write(`${home}/${file}`, 'one\ntwo\n')
        await wb.open(stack.link())
        await wb.click('tab', 'Source Control')
        await wb.shows('treeitem', `${file}, Modified`, 30_000)
        await wb.click('textbox', 'Commit message')
        await page.keys(`Commit from ${engine}`)
        await wb.click('button', 'Commit')
        // Nothing was staged: the view asks to stage everything first, as VS Code does.
        await wb.click('button', 'Stage All and Commit')
        await expect
          .poll(() => sh('git log -1 --format=%s'), { timeout: 20_000 })
          .toBe(`Commit from ${engine}\n`)
        expect(await sh('git show --name-only --format= HEAD')).toBe(`${file}\n`)
        await wb.gone('treeitem', `${file}, Modified`)
      } finally {
        // The home folder is no repository again for the tests after this one.
        await sh('rm -rf .git .gitignore')
      }
    })

    it('pauses and resumes; the shell goes on where it was', async () => {
      await wb.open(stack.link())
      await wb.run('echo before=$$', /before=\d+/)
      const pid = (await wb.terminalText()).match(/before=(\d+)/)?.[1]
      await wb.click('button', 'Pause')
      await wb.waitForState('Paused')
      await wb.click('button', 'Resume')
      await wb.waitForState('Running')
      await wb.run('echo after=$$', `after=${pid}`)
    })

    it('embeds in the demo page, opens a file, and runs a command once the user agrees', async () => {
      await page.goto(stack.link('/', `http://embed-demo.localhost:${stack.port}`))
      const parent = new EngineWorkbench(page)
      const events = () => document.querySelector('[role="log"][aria-label="Events"]')?.textContent ?? ''
      await page.waitUntil(
        () => document.querySelector('[role="log"]')?.textContent?.includes('ready'),
        [],
        30_000,
      )
      const ide = new EngineWorkbench(await page.frame('iframe#ide'))
      await ide.shows('tree', 'Files')
      await parent.click('button', 'Open hello.py')
      await ide.shows('tab', /^hello\.py/)
      await parent.click('button', 'Run python3 hello.py')
      await ide.shows('alertdialog', 'Run this command?')
      expect(
        await ide.page.evaluate(() => document.querySelector('[role="alertdialog"][open]')?.textContent),
      ).toContain('python3 hello.py')
      await ide.click('button', 'Run')
      await page.waitUntil(
        () => document.querySelector('[role="log"]')?.textContent?.includes('"exitCode":0'),
        [],
        20_000,
      )
      expect(await page.evaluate(events)).toContain('processExited')
      await ide.terminalShows('Hello from the sandbox!')
    })
  })
}
