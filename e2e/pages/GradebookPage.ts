import { expect, type Locator, type Page } from '@playwright/test'

/** The Gradebook tab of a class's dashboard (`/class/{name}`), and the submission it opens. */
export class GradebookPage {
  readonly table: Locator
  readonly status: Locator
  /** The open submission's dialog. */
  readonly submission: Locator

  constructor(
    readonly page: Page,
    readonly className: string,
  ) {
    this.table = page.getByRole('table', { name: new RegExp(`^Grades of ${className}:`) })
    this.status = page.getByRole('tabpanel', { name: 'Gradebook' }).getByRole('status')
    this.submission = page.getByRole('dialog', { name: /'s submission of / })
  }

  /** Chooses the dashboard's Gradebook tab and waits for the table. */
  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Gradebook' }).click()
    await expect(this.table).toBeVisible({ timeout: 15_000 })
  }

  /** A student's row for a lab. */
  row(student: string, lab: string): Locator {
    return this.table.getByRole('row', { name: `${student}, ${lab}`, exact: true })
  }

  /** The students' names as the table lists them, top to bottom. */
  async students(): Promise<string[]> {
    return this.table.locator('tbody th[scope="row"]').allTextContents()
  }

  /** Saves the CSV through Download CSV; its file name and text. */
  async downloadCsv(): Promise<{ name: string; text: string }> {
    const downloading = this.page.waitForEvent('download')
    await this.page
      .getByRole('toolbar', { name: 'Grades' })
      .getByRole('button', { name: 'Download CSV' })
      .click()
    const download = await downloading
    const stream = await download.createReadStream()
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') }
  }

  /** Regrade all…, answered Yes; waits for what it came to. */
  async regradeAll(summary: string | RegExp): Promise<void> {
    await this.page
      .getByRole('toolbar', { name: 'Grades' })
      .getByRole('button', { name: 'Regrade all…' })
      .click()
    const dialog = this.page.getByRole('alertdialog', {
      name: `Regrade every submission of ${this.className}?`,
    })
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await dialog.getByRole('button', { name: 'Regrade all' }).click()
    await expect(this.status).toHaveText(summary, { timeout: 120_000 })
  }
}
