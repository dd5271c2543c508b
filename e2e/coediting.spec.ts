// Co-editing: two browsers with the same file of one sandbox open edit one text, live, before any
// save; concurrent typing converges; Undo undoes one's own edits only; each sees where the other's
// cursor is; a save by either leaves both clean; a change from outside (the terminal, git) comes
// in once, not once per browser, and merges with unsaved edits. Everything runs through the sandbox's own relay process.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()
let files: SandboxFiles
const home = '/home/user'

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

/** A browser of its own (its own cookies and storage, as another person's) on the workbench. */
async function personPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await new WorkbenchPage(page).goto(stack.link())
  return page
}

// Two people for the whole file (opening a workbench is most of a test's time): each test has
// them open files of its own.
let annPage: Page
let bobPage: Page
test.beforeAll(async ({ browser }) => {
  // One after the other: Bob's page then finds Ann's shell and shows it, as a second browser does.
  annPage = await personPage(browser)
  bobPage = await personPage(browser)
})
test.afterAll(async () => {
  await annPage?.context().close()
  await bobPage?.context().close()
})

/** `page`'s person with `path` open in the editor. */
async function opened(page: Page, path: string): Promise<{ page: Page; editor: EditorPage }> {
  const editor = new EditorPage(page)
  await editor.open(path)
  await editor.editable()
  return { page, editor }
}

const unsaved = (name: string) => new RegExp(`^${name.replace('.', '\\.')} \\(unsaved\\)$`)

test('what one types shows in the other’s editor before a save, and a save by either leaves both clean', async () => {
  const path = `${home}/together.py`
  await files.write(path, 'x = 1\n')
  const ann = await opened(annPage, path)
  const bob = await opened(bobPage, path)

  await ann.editor.typeAtEnd('y = 2')
  await expect.poll(() => bob.editor.text()).toBe('x = 1\ny = 2')
  await expect(bob.editor.tab('together.py')).toHaveAccessibleName(unsaved('together.py'))
  // Each one's tab says who else has the file open.
  await expect(bob.editor.tab('together.py')).toHaveAccessibleDescription('Also open by Owner')
  // And the explorer marks the file.
  await expect(bobPage.getByRole('treeitem', { name: 'together.py' })).toHaveAccessibleDescription(
    'open by Owner',
  )
  expect(await files.read(path)).toBe('x = 1\n')

  await bob.editor.typeAtEnd('\nz = 3')
  await expect.poll(() => ann.editor.text()).toBe('x = 1\ny = 2\nz = 3')
  await bob.editor.save()
  await expect.poll(() => files.read(path)).toBe('x = 1\ny = 2\nz = 3')
  await expect(bob.editor.tab('together.py')).toHaveAccessibleName('together.py')
  // Ann never saved, but the disk holds the shared text: hers is not unsaved either, and no conflict.
  await expect(ann.editor.tab('together.py')).toHaveAccessibleName('together.py')
  await expect(ann.editor.bannerButton('Keep mine')).toBeHidden()
})

test('both typing at once end with the same text, holding everything each typed', async () => {
  const path = `${home}/race.txt`
  await files.write(path, 'middle\n')
  const ann = await opened(annPage, path)
  const bob = await opened(bobPage, path)
  await ann.editor.editor.locator('.view-lines').click()
  await ann.page.keyboard.press('Control+Home')
  await bob.editor.editor.locator('.view-lines').click()
  await bob.page.keyboard.press('Control+End')
  await Promise.all([ann.page.keyboard.type('ann-ann-ann '), bob.page.keyboard.type('bob-bob-bob')])
  const expected = 'ann-ann-ann middle\nbob-bob-bob'
  await expect.poll(() => ann.editor.text()).toBe(expected)
  await expect.poll(() => bob.editor.text()).toBe(expected)
})

test('Undo undoes one’s own edits only, and each sees the other’s cursor with their name', async () => {
  const path = `${home}/undo.txt`
  await files.write(path, 'base\n')
  const ann = await opened(annPage, path)
  const bob = await opened(bobPage, path)
  await ann.editor.typeAtEnd('ann')
  await expect.poll(() => bob.editor.text()).toBe('base\nann')
  await bob.editor.editor.locator('.view-lines').click()
  await bob.page.keyboard.press('Control+Home')
  await bob.page.keyboard.type('bob ')
  await expect.poll(() => ann.editor.text()).toBe('bob base\nann')

  // Ann's Ctrl+Z takes back "ann", not Bob's "bob ", in both editors; Ctrl+Shift+Z brings it back.
  await ann.page.keyboard.press('Control+Z')
  await expect.poll(() => ann.editor.text()).toBe('bob base\n')
  await expect.poll(() => bob.editor.text()).toBe('bob base\n')
  await ann.page.keyboard.press('Control+Shift+Z')
  await expect.poll(() => bob.editor.text()).toBe('bob base\nann')

  // Bob's caret is drawn in Ann's editor, with his name.
  const caret = ann.editor.editor.locator('.remote-caret')
  await expect(caret).toHaveCount(1)
  await expect(caret).toBeVisible()
})

test('a change from outside comes into the shared text once, and both stay clean', async () => {
  const path = `${home}/outside.txt`
  await files.write(path, 'one\n')
  const ann = await opened(annPage, path)
  const bob = await opened(bobPage, path)
  await files.write(path, 'one\ntwo\n')
  await expect.poll(() => ann.editor.text()).toBe('one\ntwo\n')
  await expect.poll(() => bob.editor.text()).toBe('one\ntwo\n')
  // Not taken in twice (each page applying the same change would double it).
  await new Promise((r) => setTimeout(r, 1_000))
  expect(await ann.editor.text()).toBe('one\ntwo\n')
  await expect(ann.editor.tab('outside.txt')).toHaveAccessibleName('outside.txt')
  await expect(bob.editor.tab('outside.txt')).toHaveAccessibleName('outside.txt')
})

test('a change from the terminal merges into a text both have edited and not saved: nothing is lost', async () => {
  const path = `${home}/merge.py`
  await files.write(path, 'a = 1\nb = 2\nc = 3\n')
  const ann = await opened(annPage, path)
  const bob = await opened(bobPage, path)
  await ann.editor.editor.locator('.view-lines').click()
  await annPage.keyboard.press('Control+Home')
  await annPage.keyboard.press('End')
  await annPage.keyboard.type('0')
  await expect.poll(() => bob.editor.text()).toBe('a = 10\nb = 2\nc = 3\n')

  // The terminal appends a line while the text holds an unsaved edit: the line comes in, the edit stays.
  await new WorkbenchPage(bobPage).run(`echo 'd = 4' >> ${path}; echo appended-$((6*7))`, 'appended-42')
  const both = 'a = 10\nb = 2\nc = 3\nd = 4\n'
  await expect.poll(() => ann.editor.text()).toBe(both)
  await expect.poll(() => bob.editor.text()).toBe(both)
  // Still unsaved for both (the disk lacks Ann's edit), and nobody is asked to choose.
  await expect(ann.editor.tab('merge.py')).toHaveAccessibleName(unsaved('merge.py'))
  await expect(bob.editor.tab('merge.py')).toHaveAccessibleName(unsaved('merge.py'))
  await expect(ann.editor.bannerButton('Keep mine')).toBeHidden()
  await expect(bob.editor.bannerButton('Keep mine')).toBeHidden()

  // Back to the editor from the terminal (there, Ctrl+S would stop the terminal's output).
  await bob.editor.editor.locator('.view-lines').click()
  await bob.editor.save()
  await expect.poll(() => files.read(path)).toBe(both)
  await expect(ann.editor.tab('merge.py')).toHaveAccessibleName('merge.py')
})

test('each sees who else is here; following one shows their file and place until one moves', async () => {
  await files.write(`${home}/mine.txt`, 'mine\n')
  await files.write(`${home}/theirs.txt`, `${'line\n'.repeat(200)}the end\n`)
  await files.write(`${home}/next.txt`, 'next\n')
  const ann = await opened(annPage, `${home}/mine.txt`)
  const bob = await opened(bobPage, `${home}/theirs.txt`)
  await bob.editor.editor.locator('.view-lines').click()
  await bob.page.keyboard.press('Control+End')

  const people = ann.page.getByRole('group', { name: 'People here' })
  const bobAvatar = people.getByRole('button', { name: 'Owner, in theirs.txt' })
  await expect(bobAvatar).toBeVisible({ timeout: 15_000 })
  await bobAvatar.click()
  await expect(bobAvatar).toHaveAttribute('aria-pressed', 'true')
  await expect(ann.editor.tab('theirs.txt')).toHaveAttribute('aria-selected', 'true')
  // Bob's place (the end of a long file) is brought into view.
  await expect(ann.editor.editor.getByText('the end')).toBeVisible()

  // Bob opens another file: Ann's editor goes with him.
  await bob.editor.open(`${home}/next.txt`)
  await expect(ann.editor.tab('next.txt')).toHaveAttribute('aria-selected', 'true')

  // A move of Ann's own (a click in her editor) ends it.
  await ann.editor.editor.locator('.view-lines').click()
  await expect(people.getByRole('button', { name: /^Owner/ })).toHaveAttribute('aria-pressed', 'false')
})

test('a terminal tab shows who of the others is typing in it', async () => {
  await files.write(`${home}/t.txt`, 't\n')
  const ann = await opened(annPage, `${home}/t.txt`)
  const bob = await opened(bobPage, `${home}/t.txt`)
  const annShell = new WorkbenchPage(ann.page)
  const bobShell = new WorkbenchPage(bob.page)
  // Both pages show the sandbox's one shell: what Ann types, Bob sees, and his tab says she types.
  await annShell.run('echo typed-by-ann', 'typed-by-ann')
  await expect(bobShell.terminalRows).toContainText('typed-by-ann', { timeout: 15_000 })
  await annShell.type('echo still-typing')
  const bobsTab = bob.page.getByRole('tablist', { name: 'Terminals' }).getByRole('tab').first()
  await expect(bobsTab).toHaveAccessibleDescription('Owner typing')
  // A few seconds after her last key, it lapses.
  await expect(bobsTab).not.toHaveAccessibleDescription('Owner typing', { timeout: 10_000 })
})

test('"Follow me" brings the others to this person’s file, until they move', async () => {
  await files.write(`${home}/lesson.py`, `${'# step\n'.repeat(100)}answer = 42\n`)
  await files.write(`${home}/own.py`, 'own\n')
  const teacher = await opened(annPage, `${home}/lesson.py`)
  const student = await opened(bobPage, `${home}/own.py`)
  await teacher.editor.editor.locator('.view-lines').click()
  await teacher.page.keyboard.press('Control+End')

  const people = teacher.page.getByRole('group', { name: 'People here' })
  await expect(people.getByRole('button', { name: /^Owner/ })).toBeVisible({ timeout: 15_000 })
  await people.getByRole('button', { name: 'Follow me' }).click()
  await expect(student.editor.tab('lesson.py')).toHaveAttribute('aria-selected', 'true')
  await expect(student.editor.editor.getByText('answer = 42')).toBeVisible()
  await expect(student.page.getByRole('region', { name: 'Notifications' })).toContainText(
    'asked everyone to follow',
  )
  await expect(
    student.page.getByRole('group', { name: 'People here' }).getByRole('button', { name: /^Owner/ }),
  ).toHaveAttribute('aria-pressed', 'true')
})
