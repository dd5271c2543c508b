import { expect, type Locator, type Page } from '@playwright/test'

/** The Source Control view: its toolbar, the commit box, the tree of changes and its dialogs. */
export class SourceControlPage {
  readonly view: Locator
  readonly tree: Locator
  readonly message: Locator
  readonly branch: Locator

  constructor(readonly page: Page) {
    this.view = page.getByRole('region', { name: 'Source Control' })
    this.tree = this.view.getByRole('tree', { name: 'Changes' })
    this.message = this.view.getByRole('textbox', { name: 'Commit message' })
    this.branch = this.view.locator('.scm-branch')
  }

  /** Shows the view with its shortcut, as a user does (Ctrl+Shift+G). */
  async show(): Promise<void> {
    await this.page.keyboard.press('Control+Shift+G')
    await expect(this.view).toBeVisible()
  }

  /** A group's row: "Changes, 2 files". */
  group(title: string): Locator {
    return this.tree.getByRole('treeitem', { name: new RegExp(`^${title}, `) })
  }

  /** A file's row, by what a screen reader hears: "notes.txt, Modified" (a folder after the name). */
  change(name: string, letter: string): Locator {
    return this.tree.getByRole('treeitem', { name: new RegExp(`^${name}(, [^,]+)?, ${letter}`) })
  }

  /** One of a row's buttons (for the mouse: they show where it points), by its tooltip. */
  async rowAction(row: Locator, title: string): Promise<void> {
    await row.hover()
    await row.getByTitle(title, { exact: true }).click()
  }

  button(name: string): Locator {
    return this.view.getByRole('button', { name, exact: true })
  }

  /** A question the view asks, by its title. */
  dialog(title: string): Locator {
    return this.page.getByRole('dialog', { name: title })
  }
}
