import { expect, type Locator, type Page } from '@playwright/test'

/** The process list as a user sees it: one row per process, with its actions. */
export class ProcessPanelPage {
  readonly list: Locator
  readonly refresh: Locator

  constructor(readonly page: Page) {
    this.list = page.getByRole('list', { name: 'Processes' })
    this.refresh = page.getByRole('button', { name: 'Refresh processes' })
  }

  /** The entry of process `pid`. */
  row(pid: number | string): Locator {
    return this.list.getByRole('listitem').filter({ has: this.page.getByText(`PID ${pid}`, { exact: true }) })
  }

  /** Waits until process `pid` is listed (the list refreshes by itself every few seconds). */
  async expectListed(pid: number | string): Promise<Locator> {
    const row = this.row(pid)
    await expect(row).toBeVisible({ timeout: 10_000 })
    return row
  }

  openButton(pid: number | string): Locator {
    return this.page.getByRole('button', { name: `Open ${pid} in a terminal` })
  }

  killButton(pid: number | string): Locator {
    return this.page.getByRole('button', { name: `Kill ${pid}`, exact: true })
  }
}
