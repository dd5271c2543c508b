import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'

/** The workbench as a user sees it: toolbar, terminal, palette, status bar. */
export class WorkbenchPage {
  readonly toolbar: Locator
  readonly state: Locator
  readonly terminal: Locator
  readonly terminalRows: Locator
  readonly status: Locator
  readonly palette: Locator

  constructor(readonly page: Page) {
    this.toolbar = page.getByRole('toolbar', { name: 'Sandbox' })
    this.state = page.getByTestId('sandbox-state')
    this.terminal = page.getByRole('tabpanel').filter({ visible: true }).getByRole('region').first()
    this.terminalRows = this.terminal.locator('.xterm-rows')
    this.status = page.getByTestId('connection-status')
    this.palette = page.getByRole('dialog', { name: 'Command palette' })
  }

  async goto(path = '/'): Promise<void> {
    await this.page.goto(path)
    await expect(this.state).toHaveText('Running', { timeout: 20_000 })
    await expect(this.terminalRows).toContainText('$', { timeout: 20_000 })
  }

  /** What the visible terminal shows, one line per row. */
  async terminalText(): Promise<string> {
    return (
      await this.terminalRows.evaluate((rows) =>
        [...rows.children].map((r) => r.textContent ?? '').join('\n'),
      )
    ).trimEnd()
  }

  /** Types into the terminal, as a user at the keyboard. */
  async type(text: string): Promise<void> {
    await this.terminal.locator('textarea').focus()
    await this.page.keyboard.type(text)
  }

  /** Runs a shell command and waits for a line the test expects in the output. */
  async run(command: string, expected: string | RegExp): Promise<void> {
    await this.type(`${command}\n`)
    await expect(this.terminalRows).toContainText(expected)
  }

  /** Runs a command by its name in the command palette. */
  async command(title: string): Promise<void> {
    await this.page.keyboard.press('Control+Shift+P')
    await expect(this.palette).toBeVisible()
    await this.palette.getByRole('combobox').fill(title)
    await this.page.keyboard.press('Enter')
    await expect(this.palette).toBeHidden()
  }
}

/** Saves a screenshot as a file in the test's output folder and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path })
  await testInfo.attach(name, { path, contentType: 'image/png' })
}
