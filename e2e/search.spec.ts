import { EditorPage } from './pages/EditorPage'
import { SearchPage } from './pages/SearchPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { runInSandbox } from './runtimeProcess'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

// Find in Files, Replace and Go to File against the real stack: ripgrep (and, with it hidden,
// grep) run in the sandbox through the runtime's process API, the files made and checked through
// the runtime, as another client of the sandbox would. That a cancel kills the search's process
// is tested against the real runtime in src/sandbox/search/TextSearch.test.ts, where the cap can
// be raised to keep ripgrep busy (here it stops a flood at 20,000 results by itself).

const stack = stackForThisFile()
test.describe.configure({ mode: 'serial' })

const home = '/home/user'
let files: SandboxFiles
/** Runs a bash script in the home folder; its stdout. */
const sh = async (script: string) => (await runInSandbox(stack, files.sandboxId, script)).stdout

/** The word of the first test, in 3 files of the 5,000 and nowhere else. */
const word = 'quokkafish'
const holders = ['big/d3/f3.txt', 'big/d17/f2017.txt', 'big/d42/deeper/still/here.md']

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
  // 5,000 files in 50 folders; the word in three of them (one deeper down), a near miss in a fourth
  // (a whole word is asked for), and once in a file .gitignore leaves out.
  await sh(`
    set -e
    mkdir -p big/d{0..49} big/d42/deeper/still big/dist deep/nested/folders/go/here
    cd big
    for i in $(seq 0 4999); do echo "filler line $i of the haystack" > "d$((i % 50))/f$i.txt"; done
    echo "one ${word} here" > d3/f3.txt
    printf 'a\\nb\\nthe ${word} at line three\\n' > d17/f2017.txt
    echo "# ${word}" > d42/deeper/still/here.md
    echo "${word}s are not a whole word" > d5/f5.txt
    echo dist/ > .gitignore
    echo "${word} in a built file" > dist/bundle.js
    cd ..
    echo "export class WidgetFactory {}" > deep/nested/folders/go/here/WidgetFactory.ts
  `)
})

test('finds a word in 3 of 5,000 files and only there; a click opens the file at the match', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const search = new SearchPage(page)
  await search.show()
  await search.view.getByRole('button', { name: 'Match Whole Word (Alt+W)' }).click()
  await search.search(word)
  await expect(search.status).toHaveText('3 results in 3 files.', { timeout: 30_000 })
  expect((await search.fileRows()).sort()).toEqual(holders.map((path) => `${path}, 1 result`).sort())

  // The match's row shows its line; a click opens the file with the match selected.
  const match = search.results.getByRole('treeitem', { name: `Line 3: the ${word} at line three` })
  await match.click()
  const editor = new EditorPage(page)
  await expect(editor.tab('f2017.txt')).toHaveAttribute('aria-selected', 'true')
  await editor.editable()
  await expect(editor.cursor).toHaveText(/^Ln 3, Col 15/)
})

test('an invalid regular expression says why by the box, in ripgrep’s words', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const search = new SearchPage(page)
  await search.show()
  await search.query.focus()
  await page.keyboard.press('Alt+R')
  await expect(search.view.getByRole('button', { name: 'Use Regular Expression (Alt+R)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await search.search('quokka(')
  await expect(search.view.getByRole('alert')).toContainText('regex parse error')
  await expect(search.query).toHaveAttribute('aria-invalid', 'true')
})

test('Replace All changes exactly the matches on disk, skips a file changed since the search, and is undone', async ({
  page,
}) => {
  await files.write(`${home}/rep/a.txt`, 'alpha TOKEN beta\n')
  await files.write(`${home}/rep/b.txt`, 'TOKEN\nkeep\nTOKEN TOKEN\n')
  await files.write(`${home}/rep/c.txt`, 'x TOKEN\n')
  await files.write(`${home}/rep/untouched.txt`, 'token in lower case, not matched\n')
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const search = new SearchPage(page)
  await search.show()
  // Ctrl+Shift+H opens the replace box and gives it the keyboard.
  await search.query.focus()
  await page.keyboard.press('Control+Shift+H')
  await expect(search.replace).toBeFocused()
  await search.replace.fill('DONE')
  await search.view.getByRole('button', { name: 'Match Case (Alt+C)' }).click()
  await search.view.getByRole('button', { name: 'Toggle Search Details' }).click()
  await search.view.getByRole('textbox', { name: 'files to include' }).fill('./rep')
  await search.search('TOKEN')
  await expect(search.status).toHaveText('5 results in 3 files.', { timeout: 30_000 })
  // Each match shows what it becomes.
  await expect(
    search.results.getByRole('treeitem', { name: 'Line 1: alpha TOKEN beta, replace TOKEN with DONE' }),
  ).toBeVisible()

  // c.txt changes on disk after the search (a line added elsewhere): it must not be overwritten.
  await files.write(`${home}/rep/c.txt`, 'x TOKEN\nadded by someone else\n')
  await search.replaceAll()
  const report = search.view.locator('.search-report')
  await expect(report).toContainText('Replaced 4 occurrences in 2 files.')
  await expect(report.getByRole('list', { name: 'Skipped files' })).toContainText(
    `${home}/rep/c.txt (it changed since the search)`,
  )
  expect(await files.read(`${home}/rep/a.txt`)).toBe('alpha DONE beta\n')
  expect(await files.read(`${home}/rep/b.txt`)).toBe('DONE\nkeep\nDONE DONE\n')
  expect(await files.read(`${home}/rep/c.txt`)).toBe('x TOKEN\nadded by someone else\n')
  expect(await files.read(`${home}/rep/untouched.txt`)).toBe('token in lower case, not matched\n')

  await report.getByRole('button', { name: 'Undo Replace All' }).click()
  await expect(report).toContainText('Restored 2 files.')
  expect(await files.read(`${home}/rep/a.txt`)).toBe('alpha TOKEN beta\n')
  expect(await files.read(`${home}/rep/b.txt`)).toBe('TOKEN\nkeep\nTOKEN TOKEN\n')
})

test('Go to File (Ctrl+P) opens a deep file by a few letters of its name', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const search = new SearchPage(page)
  // Ctrl+P is a shell's own in a terminal: the keyboard goes to the explorer first.
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('tree', { name: 'Files' }).focus()
  await search.openGoToFile()
  await search.goToFile.getByRole('combobox').fill('wdgfac')
  const first = search.goToFile.getByRole('option').first()
  await expect(first).toContainText('WidgetFactory.ts', { timeout: 30_000 })
  await expect(first).toContainText('deep/nested/folders/go/here')
  await page.keyboard.press('Enter')
  await expect(search.goToFile).toBeHidden()
  await expect(new EditorPage(page).tab('WidgetFactory.ts')).toHaveAttribute('aria-selected', 'true')
})

test('Ctrl+Shift+F in a terminal is its own find; elsewhere it shows Search with the keyboard in its box', async ({
  page,
}) => {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const search = new SearchPage(page)
  await wb.terminal.locator('textarea').focus()
  await page.keyboard.press('Control+Shift+F')
  await expect(wb.terminal.getByRole('searchbox', { name: 'Find in terminal' })).toBeFocused()
  await page.keyboard.press('Escape')
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('tree', { name: 'Files' }).focus()
  await page.keyboard.press('Control+Shift+F')
  await expect(search.query).toBeFocused()
  await expect(search.tab).toHaveAttribute('aria-selected', 'true')
})

test('without ripgrep (a template that lacks it), the search runs grep and says how to add ripgrep', async ({
  page,
}) => {
  // A sandbox whose own system lacks rg, as a stock E2B template does: its root moves rg away in
  // the sandbox's own copy of /usr (the host keeps its own).
  const info = (await (await stack.ideApi('GET', '/stack')).json()) as {
    root: { kind: string }
    system: string
  }
  test.skip(info.root.kind !== 'sudo' || info.system !== 'own-copy', 'sandboxes have no writable system here')
  await sh('sudo -n mv /usr/bin/rg /usr/bin/rg.hidden-by-e2e')
  try {
    expect(await sh('command -v rg || echo missing')).toBe('missing\n')
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    const search = new SearchPage(page)
    await search.show()
    await search.view.getByRole('button', { name: 'Match Whole Word (Alt+W)' }).click()
    await search.view.getByRole('button', { name: 'Toggle Search Details' }).click()
    await search.view.getByRole('textbox', { name: 'files to include' }).fill('./big')
    await search.search(word)
    await expect(search.status).toHaveText(/^\d+ results? in \d+ files?\.$/, { timeout: 60_000 })
    await expect(search.view).toContainText(
      'Search is slower without ripgrep; add it with sudo apt-get install ripgrep (or in your E2B template).',
    )
    // grep reads no .gitignore: the built file is found too, besides the three.
    expect((await search.fileRows()).sort()).toEqual(
      [...holders, 'big/dist/bundle.js'].map((path) => `${path}, 1 result`).sort(),
    )
  } finally {
    await sh('sudo -n mv /usr/bin/rg.hidden-by-e2e /usr/bin/rg')
  }
})
