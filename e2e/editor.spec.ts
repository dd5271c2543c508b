import type { Page } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { ExplorerPage } from './pages/ExplorerPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()
let files: SandboxFiles
const home = '/home/user'

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

/** Calls the sandbox's runtime from Node as another program would (by the router's header). */
async function runtime(path: string, init: RequestInit): Promise<Response> {
  const headers = {
    'X-Access-Token': await files.token(),
    'E2b-Sandbox-Id': files.sandboxId,
    ...(init.headers as Record<string, string>),
  }
  const res = await fetch(`${stack.url}${path}`, { ...init, headers })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return res
}

/** Writes bytes to a file in the sandbox, outside the IDE. */
async function writeBytes(path: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  await runtime(`/files?${new URLSearchParams({ path })}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: bytes,
  })
}

/** Renames a file or folder outside the IDE (Move is a rename(2) in the runtime, as `mv` is). */
async function move(source: string, destination: string): Promise<void> {
  await runtime('/filesystem.Filesystem/Move', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source, destination }),
  })
}

/** The workbench with a running sandbox and a live terminal, and its editor. */
async function workbench(page: Page): Promise<EditorPage> {
  await new WorkbenchPage(page).goto(stack.link())
  return new EditorPage(page)
}

/** Names of the resources the page has loaded so far. */
const loaded = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))

test('Monaco loads only when the first file opens; edit, the tab shows unsaved, Ctrl+S reaches disk', async ({
  page,
}) => {
  await files.write(`${home}/hello.py`, 'print("hello")\n')
  const editor = await workbench(page)
  // The terminal is up (goto waited for its prompt) and Monaco is not loaded yet.
  expect((await loaded(page)).some((name) => /monacoSetup|editor\.api/.test(name))).toBe(false)

  await editor.open(`${home}/hello.py`)
  await editor.editable()
  expect((await loaded(page)).some((name) => name.includes('monacoSetup'))).toBe(true)
  expect((await loaded(page)).some((name) => /cdn|jsdelivr|unpkg/.test(name))).toBe(false)
  await expect(editor.area.locator('.editor-statusline')).toContainText('python')
  expect(await editor.text()).toContain('print("hello")')

  await editor.typeAtEnd('x = 42')
  await expect(editor.tab('hello.py')).toHaveAccessibleName('hello.py (unsaved)')
  await editor.save()
  await expect(editor.tab('hello.py')).toHaveAccessibleName('hello.py')
  expect(await files.read(`${home}/hello.py`)).toBe('print("hello")\nx = 42')

  // Monaco's theme follows the IDE's.
  await new WorkbenchPage(page).command('Theme: Dark')
  await expect(editor.editor).toHaveClass(/vs-dark/)
  await new WorkbenchPage(page).command('Theme: Light')
  await expect(editor.editor).not.toHaveClass(/vs-dark/)
})

test('a clean buffer reloads quietly when the file changes on disk, and the cursor stays', async ({
  page,
}) => {
  await files.write(`${home}/clean.txt`, 'alpha\nbeta\ngamma\n')
  const editor = await workbench(page)
  await editor.open(`${home}/clean.txt`)
  await editor.editable()
  await editor.editor.locator('.view-lines').click()
  await page.keyboard.press('Control+Home')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(editor.cursor).toHaveText('Ln 2, Col 3')

  await files.write(`${home}/clean.txt`, 'alpha\nbeta\ngamma changed on disk\n')
  await expect.poll(() => editor.text()).toContain('gamma changed on disk')
  await expect(editor.cursor).toHaveText('Ln 2, Col 3')
  await expect(editor.alert).toHaveCount(0)
  await expect(editor.tab('clean.txt')).toHaveAccessibleName('clean.txt')
})

test('a dirty buffer gets a banner: Compare shows both, Load disk version takes the disk, Keep mine keeps mine', async ({
  page,
}, testInfo) => {
  await files.write(`${home}/dirty.txt`, 'base\n')
  const editor = await workbench(page)
  await editor.open(`${home}/dirty.txt`)
  await editor.editable()
  await editor.typeAtEnd('mine')

  await files.write(`${home}/dirty.txt`, 'base\ndisk two\n')
  await expect(editor.alert).toContainText('dirty.txt changed on disk while you have unsaved changes')
  expect(await editor.text()).toContain('mine')

  // Compare: the disk's text on the left, mine on the right.
  await editor.bannerButton('Compare').click()
  await expect(editor.diff).toBeVisible()
  await expect(editor.diff.locator('.editor.original')).toContainText('disk two')
  await expect(editor.diff.locator('.editor.modified')).toContainText('mine')
  await screenshot(page, testInfo, 'conflict-compare')
  await editor.bannerButton('Close compare').click()
  await expect(editor.diff).toBeHidden()

  // Load disk version: the disk's text, clean; Undo brings mine back.
  await editor.bannerButton('Load disk version').click()
  await expect(editor.alert).toHaveCount(0)
  await expect.poll(() => editor.text()).toContain('disk two')
  expect(await editor.text()).not.toContain('mine')
  await expect(editor.tab('dirty.txt')).toHaveAccessibleName('dirty.txt')
  await editor.editor.locator('.view-lines').click()
  await page.keyboard.press('Control+Z')
  await expect.poll(() => editor.text()).toContain('mine')
  await expect(editor.tab('dirty.txt')).toHaveAccessibleName('dirty.txt (unsaved)')

  // Keep mine: the banner goes, my text stays unsaved, and the next save writes it without asking.
  await files.write(`${home}/dirty.txt`, 'disk three\n')
  await expect(editor.alert).toContainText('changed on disk')
  await editor.bannerButton('Keep mine').click()
  await expect(editor.alert).toHaveCount(0)
  expect(await editor.text()).toContain('mine')
  await editor.save()
  await expect(editor.tab('dirty.txt')).toHaveAccessibleName('dirty.txt')
  expect(await files.read(`${home}/dirty.txt`)).toBe('base\nmine')
})

test('saving after an external change asks instead of overwriting; the same bytes rewritten are no conflict', async ({
  page,
}) => {
  await files.write(`${home}/race.txt`, 'one\n')
  const editor = await workbench(page)
  await editor.open(`${home}/race.txt`)
  await editor.editable()

  // Rewritten with the same bytes (a new modification time): not a change, saving just works.
  await files.write(`${home}/race.txt`, 'one\n')
  await editor.typeAtEnd('two')
  await editor.save()
  await expect(editor.tab('race.txt')).toHaveAccessibleName('race.txt')
  expect(await files.read(`${home}/race.txt`)).toBe('one\ntwo')
  await expect(editor.alert).toHaveCount(0)

  await editor.typeAtEnd(' three')
  await files.write(`${home}/race.txt`, 'theirs\n')
  await editor.save()
  await expect(editor.alert).toContainText(
    'race.txt changed on disk since you loaded it, so it was not saved',
  )
  expect(await files.read(`${home}/race.txt`)).toBe('theirs\n')
  await editor.bannerButton('Overwrite with mine').click()
  await expect(editor.alert).toHaveCount(0)
  await expect(editor.tab('race.txt')).toHaveAccessibleName('race.txt')
  expect(await files.read(`${home}/race.txt`)).toBe('one\ntwo three')

  // Outside the watched home folder no event warns the editor: the check at save time alone asks.
  await files.write('/tmp/outside.txt', 'start\n')
  await editor.open('/tmp/outside.txt')
  await editor.editable()
  await editor.typeAtEnd('mine')
  await files.write('/tmp/outside.txt', 'changed elsewhere\n')
  await editor.save()
  await expect(editor.alert).toContainText(
    'outside.txt changed on disk since you loaded it, so it was not saved',
  )
  expect(await files.read('/tmp/outside.txt')).toBe('changed elsewhere\n')
})

test('a binary file shows its size and downloads; a >5 MB file opens reduced; a >50 MB file is download only', async ({
  page,
}, testInfo) => {
  const binary = new Uint8Array(1500)
  for (let i = 0; i < binary.length; i++) binary[i] = i % 256
  await writeBytes(`${home}/image.bin`, binary)
  const line = 'the quick brown fox jumps over the lazy dog\n'
  await files.write(`${home}/large.log`, line.repeat(Math.ceil((6 * 1024 * 1024) / line.length)))
  await writeBytes(`${home}/huge.dat`, new Uint8Array(60 * 1024 * 1024).fill(97))
  const editor = await workbench(page)

  await editor.open(`${home}/image.bin`)
  await expect(editor.area.getByTestId('file-size')).toHaveText('1.5 KB')
  await expect(editor.area.getByText('it is not opened as text')).toBeVisible()
  const download = page.waitForEvent('download')
  await editor.area.getByRole('button', { name: 'Download image.bin' }).click()
  const saved = await download
  expect(saved.suggestedFilename()).toBe('image.bin')
  // Saved through a short-lived signed link the browser streams to disk, the token not in it.
  const link = new URL(saved.url())
  expect(link.pathname).toBe('/files')
  expect(link.searchParams.get('signature')).toMatch(/^v1_/)
  expect(saved.url()).not.toContain(await files.token())
  const path = await saved.path()
  const { readFileSync, statSync } = await import('node:fs')
  expect(new Uint8Array(readFileSync(path))).toEqual(binary)

  await editor.open(`${home}/large.log`)
  await editor.editable()
  const reduced = editor.area.getByRole('status').filter({ hasText: 'reduced mode' })
  await expect(reduced).toContainText('large.log is 6.0 MB')
  // The workbench's language servers are not told of it.
  await expect(reduced).toContainText('Code intelligence is off for this file.')
  await expect(editor.area.locator('.editor-statusline')).toContainText('plaintext')
  expect(await editor.text()).toContain('the quick brown fox')
  await screenshot(page, testInfo, 'reduced-mode')

  await editor.open(`${home}/huge.dat`)
  await expect(editor.area.getByTestId('file-size')).toHaveText('60.0 MB')
  await expect(editor.area.getByText('are offered for download only')).toBeVisible()
  await expect(editor.editor).toBeHidden()
  // 60 MB go straight to disk, whole.
  const huge = page.waitForEvent('download')
  await editor.area.getByRole('button', { name: 'Download huge.dat' }).click()
  expect(statSync(await (await huge).path()).size).toBe(60 * 1024 * 1024)
})

test('a file that turns to text on disk shows it without taking the keyboard from the terminal', async ({
  page,
}) => {
  await writeBytes(`${home}/turns.bin`, new Uint8Array([0, 159, 146, 150, 0, 1, 2]))
  const editor = await workbench(page)
  await editor.open(`${home}/turns.bin`)
  await expect(editor.area.getByText('it is not opened as text')).toBeVisible()
  const wb = new WorkbenchPage(page)
  const keyboard = wb.terminal.locator('textarea')
  await keyboard.focus()
  await files.write(`${home}/turns.bin`, 'text now\n')
  await editor.editable()
  expect(await editor.text()).toContain('text now')
  // The watch reloaded the file; the user was typing elsewhere, and still is.
  await expect(keyboard).toBeFocused()
  await page.keyboard.type('echo still-here\n')
  await expect(wb.terminalRows).toContainText('still-here')
})

test('closing a dirty tab asks first, and so does leaving the page', async ({ page }) => {
  await files.write(`${home}/close-me.txt`, 'keep\n')
  await files.write(`${home}/save-me.txt`, 'start\n')
  const editor = await workbench(page)
  await editor.open(`${home}/close-me.txt`)
  await editor.editable()
  await editor.typeAtEnd('unsaved')

  await editor.area.getByTitle('Close close-me.txt (Delete)').click()
  await expect(editor.closeDialog).toContainText('Save changes to close-me.txt?')
  await editor.closeDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(editor.closeDialog).toBeHidden()
  await expect(editor.tab('close-me.txt')).toHaveAccessibleName('close-me.txt (unsaved)')

  await editor.area.getByTitle('Close close-me.txt (Delete)').click()
  await editor.closeDialog.getByRole('button', { name: "Don't save" }).click()
  await expect(editor.tab('close-me.txt')).toHaveCount(0)
  expect(await files.read(`${home}/close-me.txt`)).toBe('keep\n')

  await editor.open(`${home}/save-me.txt`)
  await editor.editable()
  await editor.typeAtEnd('saved on close')
  await editor.area.getByTitle('Close save-me.txt (Delete)').click()
  await editor.closeDialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(editor.tab('save-me.txt')).toHaveCount(0)
  expect(await files.read(`${home}/save-me.txt`)).toBe('start\nsaved on close')

  await editor.open(`${home}/close-me.txt`)
  await editor.editable()
  await editor.typeAtEnd('still unsaved')
  const asked = page.waitForEvent('dialog')
  await page.close({ runBeforeUnload: true })
  const dialog = await asked
  expect(dialog.type()).toBe('beforeunload')
  await dialog.accept()
})

test('hostile file names render as text, open and save', async ({ page }, testInfo) => {
  const folder = `${home}/hostile`
  const names = ['my file.txt', 'ünï.txt', '"quoted".txt', '<script>.txt', '-dash.txt', 'new\nline.txt']
  for (const name of names) await files.write(`${folder}/${name}`, `${name} before\n`)
  const editor = await workbench(page)
  // A name that ran as markup (an injected script calling alert) would show up here.
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  for (const name of names) {
    const shown = name.replace('\n', '⏎')
    if (name.includes('\n')) await editor.pick(folder, shown)
    else await editor.open(`${folder}/${name}`)
    await editor.editable()
    await expect(editor.tab(shown)).toHaveText(shown)
    await editor.typeAtEnd('after')
    await editor.save()
    await expect(editor.tab(shown)).toHaveAccessibleName(shown)
    expect(await files.read(`${folder}/${name}`)).toBe(`${name} before\nafter`)
  }
  expect(dialogs).toEqual([])
  await screenshot(page, testInfo, 'hostile-names')
})

test('an open file renamed outside the IDE follows its new path, a moved folder too', async ({ page }) => {
  await files.write(`${home}/before.txt`, 'moving\n')
  await files.write(`${home}/dir-a/inner.txt`, 'inside\n')
  const editor = await workbench(page)
  await editor.open(`${home}/before.txt`)
  await editor.editable()
  await editor.open(`${home}/dir-a/inner.txt`)
  await editor.editable()

  await move(`${home}/before.txt`, `${home}/after.txt`)
  await expect(editor.tab('after.txt')).toBeVisible()
  await expect(editor.tab('before.txt')).toHaveCount(0)
  await editor.tab('after.txt').click()
  await editor.editable()
  await editor.typeAtEnd('saved after the move')
  await editor.save()
  await expect(editor.tab('after.txt')).toHaveAccessibleName('after.txt')
  expect(await files.read(`${home}/after.txt`)).toBe('moving\nsaved after the move')
  expect(await files.stat(`${home}/before.txt`)).toBeUndefined()

  await move(`${home}/dir-a`, `${home}/dir-b`)
  await expect(editor.tab('inner.txt')).toHaveAttribute('title', `${home}/dir-b/inner.txt`)
  await editor.tab('inner.txt').click()
  await editor.typeAtEnd('in b')
  await editor.save()
  await expect(editor.tab('inner.txt')).toHaveAccessibleName('inner.txt')
  expect(await files.read(`${home}/dir-b/inner.txt`)).toBe('inside\nin b')
})

test('a click in the explorer opens a file and keeps the keyboard there; renaming it there keeps its unsaved text on the new path', async ({
  page,
}) => {
  await files.write(`${home}/from-tree.md`, '# title\n')
  const editor = await workbench(page)
  const explorer = new ExplorerPage(page)
  await explorer.item('from-tree.md').click()
  await expect(editor.tab('from-tree.md')).toHaveAttribute('aria-selected', 'true')
  await editor.editable()
  // The click left the keyboard in the tree, even once the file loaded: F2 renames there.
  await page.keyboard.press('F2')
  await expect(explorer.panel.getByRole('textbox')).toBeFocused()
  await page.keyboard.press('Escape')
  // Enter opens into the editor.
  await page.keyboard.press('Enter')
  await expect(editor.editor.getByRole('textbox')).toBeFocused()
  await editor.typeAtEnd('unsaved line')

  await explorer.select('from-tree.md')
  await page.keyboard.press('F2')
  await explorer.name('renamed-in-tree.md')
  await expect(editor.tab('renamed-in-tree.md')).toHaveAccessibleName('renamed-in-tree.md (unsaved)')
  await editor.tab('renamed-in-tree.md').click()
  await editor.editor.locator('.view-lines').click()
  await editor.save()
  await expect(editor.tab('renamed-in-tree.md')).toHaveAccessibleName('renamed-in-tree.md')
  expect(await files.read(`${home}/renamed-in-tree.md`)).toBe('# title\nunsaved line')
  expect(await files.stat(`${home}/from-tree.md`)).toBeUndefined()
})

test('errors show the server message; editing is read-only, visibly, while the sandbox is paused', async ({
  page,
}) => {
  await files.write(`${home}/paused.txt`, 'text\n')
  const editor = await workbench(page)
  await editor.open(`${home}/does-not-exist.txt`)
  await expect(editor.alert).toContainText('does-not-exist.txt could not be opened')
  await expect(editor.alert).toContainText(/no such file|not found/i)
  await editor.area.getByRole('button', { name: 'Close', exact: true }).click()

  await editor.open(`${home}/paused.txt`)
  await editor.editable()
  const wb = new WorkbenchPage(page)
  await wb.toolbar.getByRole('button', { name: 'Pause' }).click()
  await expect(wb.state).toHaveText('Paused')
  await expect(editor.area.getByTestId('editor-readonly')).toContainText('Read-only')
  await editor.typeAtEnd('typed while paused')
  expect(await editor.text()).not.toContain('typed while paused')
  await expect(editor.tab('paused.txt')).toHaveAccessibleName('paused.txt')

  await wb.toolbar.getByRole('button', { name: 'Resume' }).click()
  await expect(wb.state).toHaveText('Running')
  await expect(editor.area.getByTestId('editor-readonly')).toHaveCount(0)
  await editor.typeAtEnd('typed after resume')
  await editor.save()
  await expect(editor.tab('paused.txt')).toHaveAccessibleName('paused.txt')
  expect(await files.read(`${home}/paused.txt`)).toBe('text\ntyped after resume')
})
