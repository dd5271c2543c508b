import { expect, type Locator, type Page } from '@playwright/test'

/** The file explorer: its tree (virtualized: only visible rows exist), toolbar and dialogs. */
export class ExplorerPage {
  readonly panel: Locator
  readonly tree: Locator

  constructor(readonly page: Page) {
    this.panel = page.getByRole('navigation', { name: 'Explorer' })
    this.tree = this.panel.getByRole('tree', { name: 'Files' })
  }

  /** The row of a file or folder, by its exact name. */
  item(name: string): Locator {
    return this.tree.getByRole('treeitem', { name, exact: true })
  }

  /** Selects a row with the mouse, which also focuses the tree for the keyboard. */
  async select(name: string): Promise<void> {
    await this.item(name).click()
    await this.tree.focus()
  }

  /** Fills the name form (new file, new folder, rename) and submits it. */
  async name(value: string): Promise<void> {
    const input = this.panel.getByRole('textbox')
    await input.fill(value)
    await input.press('Enter')
  }

  async toolbar(name: string): Promise<void> {
    await this.panel.getByRole('button', { name, exact: true }).click()
  }

  async confirmDelete(): Promise<void> {
    const dialog = this.page.getByRole('dialog', { name: /^Delete / })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
  }
}
