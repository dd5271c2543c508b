import type { Page } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

// Code intelligence against the real stack and the real servers in the sandbox (Pyright, and
// TypeScript 7's own server), started through the runtime's process API: what a user sees in the
// editor (squiggles, the problem under F8, completion, hover, F12, F2 across files).

const stack = stackForThisFile()
test.describe.configure({ mode: 'serial' })

let files: SandboxFiles
test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

const home = '/home/user'

/** The problem Monaco shows for the next marker (F8), as a user reads it. */
async function nextProblem(page: Page, editor: EditorPage): Promise<string> {
  await editor.editor.locator('.view-lines').click()
  await page.keyboard.press('Control+Home')
  await page.keyboard.press('F8')
  const widget = editor.editor.locator('.marker-widget')
  await expect(widget).toBeVisible({ timeout: 30_000 })
  const text = (await widget.textContent()) ?? ''
  await page.keyboard.press('Escape')
  return text
}

/** Opens the workbench and `path` in it, and waits until the server has underlined something. */
async function openUnderlined(page: Page, path: string): Promise<{ wb: WorkbenchPage; editor: EditorPage }> {
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const editor = new EditorPage(page)
  await editor.open(path)
  await editor.editable()
  await expect(editor.editor.locator('.squiggly-error')).not.toHaveCount(0, { timeout: 60_000 })
  return { wb, editor }
}

/** Puts the cursor on the first occurrence of `text` in the editor (its first character + offset). */
async function cursorAt(page: Page, editor: EditorPage, text: string, offset = 0): Promise<void> {
  const lines = (await editor.text()).split('\n')
  const line = lines.findIndex((l) => l.includes(text))
  if (line < 0) throw new Error(`"${text}" is not in the editor`)
  await editor.editor.locator('.view-lines').click()
  await page.keyboard.press('Control+Home')
  for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Home')
  // Home goes to the first non-blank character: count from there.
  const column =
    (lines[line] as string).indexOf(text) -
    ((lines[line] as string).length - (lines[line] as string).trimStart().length)
  for (let i = 0; i < column + offset; i++) await page.keyboard.press('ArrowRight')
}

test.describe('Python, with Pyright', () => {
  test.beforeAll(async () => {
    await files.write(`${home}/py/helpers.py`, 'def greet(name: str) -> str:\n    return "hi " + name\n')
    await files.write(
      `${home}/py/main.py`,
      'from helpers import greet\n\nprint(undefined_name)\nprint(greet("ada"))\n',
    )
  })

  test('a name that is not defined is underlined, and F8 says why', async ({ page }) => {
    const { editor } = await openUnderlined(page, 'py/main.py')
    expect(await nextProblem(page, editor)).toContain('"undefined_name" is not defined')
  })

  test('the Problems panel (Ctrl+Shift+M) lists the problem by file; Enter opens it at its place', async ({
    page,
  }) => {
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    const editor = new EditorPage(page)
    await editor.open('py/main.py')
    await editor.editable()
    await expect(page.getByRole('button', { name: /^Problems: 1 error/ })).toBeVisible({ timeout: 60_000 })
    await editor.open('py/helpers.py')
    // Loaded (a file that finishes loading takes the keyboard), before the keyboard moves on.
    await editor.editable()

    await page.keyboard.press('Control+Shift+M')
    const tree = page.getByRole('tree', { name: 'Problems' })
    await expect(tree).toBeFocused()
    await expect(tree.getByRole('treeitem', { name: 'py/main.py, 1 problem' })).toBeVisible()
    const problem = tree.getByRole('treeitem', {
      name: /^Error: "undefined_name" is not defined .*line 3, column 7$/,
    })
    await page.keyboard.press('ArrowDown')
    await expect(problem).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')
    await expect(editor.tab('main.py')).toHaveAttribute('aria-selected', 'true')
    // The problem's text is selected, as VS Code's Problems panel does: the cursor at its end.
    await expect(editor.cursor).toHaveText('Ln 3, Col 21')
  })

  test('completion, hover and go to definition into a file that is not open', async ({ page }) => {
    const { editor } = await openUnderlined(page, 'py/main.py')

    // Hover on `greet` shows its signature from the other file.
    await cursorAt(page, editor, 'greet("ada")', 1)
    await page.keyboard.press('Control+K')
    await page.keyboard.press('Control+I')
    await expect(editor.editor.locator('.monaco-hover:not(.hidden)')).toContainText('(name: str) -> str', {
      timeout: 20_000,
    })
    await page.keyboard.press('Escape')

    // Completion of a module's members.
    await editor.typeAtEnd('import os\nos.pa')
    await page.keyboard.press('Control+Space')
    const suggest = editor.editor.locator('.suggest-widget')
    await expect(suggest).toContainText('path', { timeout: 20_000 })
    await page.keyboard.press('Escape')

    // F12 opens helpers.py at the definition.
    await cursorAt(page, editor, 'greet("ada")', 1)
    await page.keyboard.press('F12')
    await expect(editor.tab('helpers.py')).toHaveAttribute('aria-selected', 'true', { timeout: 20_000 })
    await expect(editor.cursor).toHaveText('Ln 1, Col 5')
  })

  test('F2 renames across files: the open one becomes unsaved, the other is written; Save All saves', async ({
    page,
  }) => {
    const { editor } = await openUnderlined(page, 'py/main.py')
    await cursorAt(page, editor, 'greet("ada")', 1)
    await page.keyboard.press('F2')
    const box = editor.editor.locator('.rename-box input')
    await expect(box).toBeVisible({ timeout: 20_000 })
    await box.fill('welcome')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => files.read(`${home}/py/helpers.py`), { timeout: 20_000 })
      .toContain('def welcome(name')
    await expect(editor.tab('main.py')).toHaveAccessibleName(/unsaved/)
    expect(await editor.text()).toContain('print(welcome("ada"))')
    expect(await files.read(`${home}/py/main.py`)).toContain('greet')
    await page.keyboard.press('Control+Alt+S')
    await expect.poll(() => files.read(`${home}/py/main.py`)).toContain('from helpers import welcome')
  })

  test('a change made in the terminal reaches the server; a killed server comes back', async ({ page }) => {
    await files.write(`${home}/py/uses.py`, 'from helpers import extra\n\nextra()\n')
    const { wb, editor } = await openUnderlined(page, 'py/uses.py')
    expect(await nextProblem(page, editor)).toContain('"extra" is unknown import symbol')
    await wb.run("printf 'def extra():\\n    return 1\\n' >> ~/py/helpers.py && echo appended", 'appended')
    await expect(editor.editor.locator('.squiggly-error')).toHaveCount(0, { timeout: 30_000 })

    await wb.run('pkill -9 -f pyright-langserver && echo killed-$((40+2))', 'killed-42')
    await editor.typeAtEnd('\nmissing_too()\n')
    await expect(editor.editor.locator('.squiggly-error')).not.toHaveCount(0, { timeout: 60_000 })
    expect(await nextProblem(page, editor)).toContain('"missing_too" is not defined')
  })

  test('Go to Symbol in Workspace (Ctrl+T) finds a function by name; Enter opens its file at the def', async ({
    page,
  }) => {
    // A function added to helpers.py (as the tests before left it), which is not opened.
    const helpers = await files.read(`${home}/py/helpers.py`)
    const defLine = helpers.split('\n').length + 1
    await files.write(
      `${home}/py/helpers.py`,
      `${helpers}\ndef farewell_guest(name: str) -> str:\n    return name\n`,
    )
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    const dialog = page.getByRole('dialog', { name: 'Go to Symbol in Workspace' })

    // No file of a language open, no server: the dialog (from the palette) says what to do.
    await wb.command('Go to Symbol in Workspace…')
    await expect(dialog).toContainText('No language server is running')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()

    const editor = new EditorPage(page)
    await editor.open('py/main.py')
    await editor.editable()
    await expect(editor.editor.locator('.squiggly-error')).not.toHaveCount(0, { timeout: 60_000 })
    await editor.editor.locator('.view-lines').click()
    await page.keyboard.press('Control+T')
    await expect(dialog).toBeVisible()
    const input = dialog.getByRole('combobox')
    await expect(input).toBeFocused()
    const symbol = dialog.getByRole('option', { name: 'farewell_guest, function, py/helpers.py' })
    // Typed again if Pyright had not indexed the workspace yet when first asked.
    await expect(async () => {
      await input.fill('')
      await input.pressSequentially('farewell_guest')
      await expect(symbol).toBeVisible({ timeout: 5_000 })
    }).toPass({ timeout: 60_000 })
    await expect(symbol.locator('b')).toHaveText('farewell_guest')
    await expect(dialog.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
    await expect(dialog.getByRole('option').first()).toHaveAccessibleName(
      'farewell_guest, function, py/helpers.py',
    )
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()
    await expect(editor.tab('helpers.py')).toHaveAttribute('aria-selected', 'true', { timeout: 20_000 })
    await expect(editor.cursor).toHaveText(`Ln ${defLine}, Col 5`)
  })
})

test.describe('TypeScript, with its own server', () => {
  test.beforeAll(async () => {
    // A project (tsconfig.json), so the server knows every file of it, open or not.
    await files.write(`${home}/ts/tsconfig.json`, '{ "compilerOptions": { "strict": true } }\n')
    await files.write(
      `${home}/ts/lib.ts`,
      'export function shout(text: string): string {\n  return text.toUpperCase()\n}\n',
    )
    await files.write(
      `${home}/ts/app.ts`,
      'import { shout } from "./lib"\n\nconst n: number = "x"\nshout("hi")\n',
    )
  })

  test('a type error is underlined; F12, then F2 renames in the file not open; completion', async ({
    page,
  }) => {
    const { editor } = await openUnderlined(page, 'ts/app.ts')
    expect(await nextProblem(page, editor)).toContain("Type 'string' is not assignable to type 'number'")

    await cursorAt(page, editor, 'shout("hi")', 1)
    await page.keyboard.press('F12')
    await expect(editor.tab('lib.ts')).toHaveAttribute('aria-selected', 'true', { timeout: 20_000 })
    await expect(editor.cursor).toHaveText('Ln 1, Col 17')
    await editor.area.getByTitle('Close app.ts (Delete)').click()
    await expect(editor.tab('app.ts')).toHaveCount(0)

    await cursorAt(page, editor, 'shout(text', 1)
    await page.keyboard.press('F2')
    const box = editor.editor.locator('.rename-box input')
    await expect(box).toBeVisible({ timeout: 20_000 })
    await box.fill('yell')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => files.read(`${home}/ts/app.ts`), { timeout: 20_000 })
      .toBe('import { yell } from "./lib"\n\nconst n: number = "x"\nyell("hi")\n')
    expect(await editor.text()).toContain('export function yell(')
    await expect(editor.tab('lib.ts')).toHaveAccessibleName(/unsaved/)

    await editor.typeAtEnd('const s = "abc"\ns.toUpp')
    await page.keyboard.press('Control+Space')
    await expect(editor.editor.locator('.suggest-widget')).toContainText('toUpperCase', { timeout: 20_000 })
    await page.keyboard.press('Enter')
    expect(await editor.text()).toContain('s.toUpperCase')
  })
})
