import { expect, type Locator, type Page } from '@playwright/test'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The Search view (Find in Files and Replace) and Go to File, as a user sees them. */
export class SearchPage {
  readonly tab: Locator
  readonly view: Locator
  readonly query: Locator
  readonly replace: Locator
  readonly results: Locator
  /** What the search came to, in words ("3 results in 3 files."). */
  readonly status: Locator
  readonly goToFile: Locator

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { name: 'Search' })
    this.view = page.getByRole('region', { name: 'Search', exact: true })
    this.query = this.view.getByRole('searchbox', { name: 'Search' })
    this.replace = this.view.getByRole('textbox', { name: 'Replace' })
    this.results = this.view.getByRole('tree', { name: 'Search results' })
    this.status = this.view.locator('.search-status')
    this.goToFile = page.getByRole('dialog', { name: 'Go to File' })
  }

  /** Shows the view from the activity bar, as a user clicking its tab. */
  async show(): Promise<void> {
    await this.tab.click()
    await expect(this.query).toBeVisible({ timeout: 20_000 })
  }

  /** Searches for `text` (typed in the box, Enter to search at once). */
  async search(text: string): Promise<void> {
    await this.query.fill(text)
    await this.query.press('Enter')
  }

  /** A file's row of the results, by its path from the home folder. */
  file(path: string): Locator {
    return this.results.getByRole('treeitem', { name: new RegExp(`^${escapeRegExp(path)}, \\d+ results?`) })
  }

  /** Every file row's name as a screen reader hears it ("big/d3/f3.txt, 1 result"). */
  async fileRows(): Promise<string[]> {
    return this.results
      .locator('[role="treeitem"][aria-level="1"]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''))
  }

  /** The "Replace All" button beside the replace box, then the question's Replace. */
  async replaceAll(): Promise<void> {
    await this.view.getByRole('button', { name: /^Replace All/ }).click()
    const question = this.page.getByRole('alertdialog', { name: 'Replace All' })
    await expect(question).toBeVisible()
    await question.getByRole('button', { name: 'Replace', exact: true }).click()
    await expect(question).toBeHidden()
  }

  /** Opens Go to File with Ctrl+P (the keyboard must not be in a terminal, which keeps Ctrl+P). */
  async openGoToFile(): Promise<void> {
    await this.page.keyboard.press('Control+P')
    await expect(this.goToFile).toBeVisible()
  }
}
