import { expect, type Locator, type Page } from '@playwright/test'

/** The lab panel beside the editor: instructions, Check and its verdict, Reset and its dialog. */
export class LabPanelPage {
  readonly panel: Locator
  readonly instructions: Locator
  /** The check's verdict ("Passed.", "Failed: …"). */
  readonly result: Locator
  readonly output: Locator
  readonly resetResult: Locator
  readonly resetDialog: Locator

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: /^Lab\b/ })
    this.instructions = this.panel.getByRole('region', { name: 'Instructions' })
    this.result = this.panel.getByRole('status', { name: 'Check result' })
    this.output = this.panel.getByRole('region', { name: 'Check output' })
    this.resetResult = this.panel.getByRole('status', { name: 'Reset result' })
    this.resetDialog = page.getByRole('alertdialog', { name: 'Reset the lab?' })
  }

  button(name: string): Locator {
    return this.panel.getByRole('button', { name, exact: true })
  }

  /** Runs the check with its button and waits for the verdict. */
  async check(): Promise<void> {
    await this.button('Check').click()
    await expect(this.result).not.toHaveText(/Checking|Not checked/, { timeout: 30_000 })
  }

  /** Confirms the open reset dialog and waits until the files are back. */
  async confirmReset(): Promise<void> {
    await expect(this.resetDialog).toBeVisible()
    await this.resetDialog.getByRole('button', { name: 'Reset', exact: true }).click()
    await expect(this.resetResult).toHaveText('The starting files are back.')
  }
}
