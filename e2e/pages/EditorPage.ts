import { expect, type Locator, type Page } from '@playwright/test'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The editor area as a user sees it: tabs, banners, Monaco, the open-file dialog. */
export class EditorPage {
  readonly area: Locator
  readonly tabs: Locator
  /** The visible code editor (not the diff). */
  readonly editor: Locator
  readonly cursor: Locator
  readonly alert: Locator
  readonly openDialog: Locator
  readonly closeDialog: Locator
  readonly diff: Locator

  constructor(readonly page: Page) {
    this.area = page.getByRole('region', { name: 'Editor' })
    this.tabs = this.area.getByRole('tablist', { name: 'Open files' })
    this.editor = this.area.locator('.code-editor:not([hidden]) .monaco-editor')
    this.cursor = this.area.getByTestId('editor-cursor')
    this.alert = this.area.getByRole('alert')
    this.openDialog = page.getByRole('dialog', { name: 'Open file' })
    this.closeDialog = page.getByRole('alertdialog')
    this.diff = this.area.getByTestId('diff-editor')
  }

  /** A tab by the file name it shows (a newline in a name shows as ⏎), dirty or not. */
  tab(name: string): Locator {
    return this.tabs.getByRole('tab', { name: new RegExp(`^${escapeRegExp(name)}( \\(|$)`) })
  }

  /** Opens the "File: Open…" dialog from the command palette. */
  async showOpenDialog(): Promise<void> {
    const palette = this.page.getByRole('dialog', { name: 'Command palette' })
    // Again if the first click found the list being made anew (commands that arrive as the page
    // loads: presence, language servers): it landed on an option that was no longer there.
    await expect(async () => {
      if (await this.openDialog.isVisible()) return
      if (!(await palette.isVisible())) await this.page.keyboard.press('Control+Shift+P')
      await palette.getByRole('combobox').fill('File: Open')
      await palette.getByRole('option', { name: 'File: Open…' }).click({ timeout: 3_000 })
      await expect(this.openDialog).toBeVisible({ timeout: 3_000 })
    }).toPass({ timeout: 20_000 })
  }

  /** Opens a file by typing its path in "File: Open…", and waits until it is shown. */
  async open(path: string, tabName = path.slice(path.lastIndexOf('/') + 1)): Promise<void> {
    await this.showOpenDialog()
    await this.openDialog.getByRole('combobox').fill(path)
    await this.openDialog.getByRole('option', { name: `Open ${path}` }).click()
    await expect(this.openDialog).toBeHidden()
    await expect(this.tab(tabName)).toHaveAttribute('aria-selected', 'true')
  }

  /** Opens a file by picking it from its folder's entries in "File: Open…" (for names no keyboard types). */
  async pick(folder: string, shownName: string): Promise<void> {
    await this.showOpenDialog()
    await this.openDialog.getByRole('combobox').fill(`${folder}/`)
    await this.openDialog.getByRole('option', { name: shownName, exact: true }).click()
    await expect(this.openDialog).toBeHidden()
    await expect(this.tab(shownName)).toHaveAttribute('aria-selected', 'true')
  }

  /** Waits until the active file is editable text (Monaco loaded, the model in place). */
  async editable(): Promise<void> {
    await expect(this.editor).toBeVisible({ timeout: 30_000 })
    await expect(this.editor.locator('.view-lines')).toBeVisible()
  }

  /** The lines Monaco shows (all of them, for a file that fits on screen). */
  async text(): Promise<string> {
    return this.editor.locator('.view-lines').evaluate((lines) =>
      [...lines.querySelectorAll<HTMLElement>('.view-line')]
        .sort((a, b) => Number.parseFloat(a.style.top) - Number.parseFloat(b.style.top))
        .map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '))
        .join('\n'),
    )
  }

  /** Puts the cursor at the end of the text and types there, as a user does. */
  async typeAtEnd(text: string): Promise<void> {
    await this.editor.locator('.view-lines').click()
    await this.page.keyboard.press('Control+End')
    await this.page.keyboard.type(text)
  }

  /**
   * Retypes the last line that holds text, keeping its indentation (Home goes to its first
   * character), so typed code never meets Monaco's auto-indent.
   */
  async retypeLastLine(text: string): Promise<void> {
    await this.editor.locator('.view-lines').click()
    await this.page.keyboard.press('Control+End')
    if ((await this.text()).endsWith('\n')) await this.page.keyboard.press('ArrowUp')
    await this.page.keyboard.press('End')
    await this.page.keyboard.press('Shift+Home')
    await this.page.keyboard.type(text)
  }

  async save(): Promise<void> {
    await this.page.keyboard.press('Control+S')
  }

  /** A button of the conflict banner or another banner, by its name. */
  bannerButton(name: string): Locator {
    return this.area.getByRole('button', { name, exact: true })
  }
}
