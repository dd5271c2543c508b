import { expect, type Locator, type Page } from '@playwright/test'

/**
 * The lab panel beside the editor: instructions, Check and its verdict, Reset and its dialog, and
 * for a graded lab Submit, the grade and the history of submissions.
 */
export class LabPanelPage {
  readonly panel: Locator
  readonly instructions: Locator
  /** The check's verdict ("Passed.", "Failed: …"). */
  readonly result: Locator
  readonly output: Locator
  readonly resetResult: Locator
  readonly resetDialog: Locator
  /** What Submit is doing ("Submitted: grading it…", "Graded: 7 / 9."). */
  readonly submissionStatus: Locator
  /** The newest submission's grade and its tests. */
  readonly latestGrade: Locator
  /** The list of every submission, newest first. */
  readonly history: Locator
  /** Its entries (not the tests of an unfolded one). */
  readonly historyEntries: Locator
  /** "Submit unsaved changes?" */
  readonly unsavedDialog: Locator
  /** The time left to the deadline, or what follows it ("Due in 2 h 13 min.", "Closed: …"). */
  readonly timeLeft: Locator

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: /^Lab\b/ })
    this.instructions = this.panel.getByRole('region', { name: 'Instructions' })
    this.result = this.panel.getByRole('status', { name: 'Check result' })
    this.output = this.panel.getByRole('region', { name: 'Check output' })
    this.resetResult = this.panel.getByRole('status', { name: 'Reset result' })
    this.resetDialog = page.getByRole('alertdialog', { name: 'Reset the lab?' })
    this.submissionStatus = this.panel.getByRole('status', { name: 'Submission status' })
    this.latestGrade = this.panel.getByRole('region', { name: 'Latest grade' })
    this.history = this.panel.getByRole('list', { name: 'Submissions' })
    this.historyEntries = this.history.locator(':scope > li')
    this.unsavedDialog = page.getByRole('alertdialog', { name: 'Submit unsaved changes?' })
    this.timeLeft = this.panel.getByRole('timer', { name: 'Time left' })
  }

  button(name: string): Locator {
    return this.panel.getByRole('button', { name, exact: true })
  }

  /** Runs the check with its button and waits for the verdict. */
  async check(): Promise<void> {
    await this.button('Check').click()
    await expect(this.result).not.toHaveText(/Checking|Not checked/, { timeout: 30_000 })
  }

  /** A test of the newest grade, by its name: its outcome in words, points and message. */
  testResult(name: string): Locator {
    return this.latestGrade
      .getByRole('list', { name: 'Tests' })
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`\\b${name}\\b`) })
  }

  /** Submits (no editor unsaved) and waits for the grade. */
  async submit(): Promise<void> {
    await this.button('Submit').click()
    await this.graded()
  }

  /** While the stack grades (seconds: a sandbox of its own), the status says so and Submit is off; then the grade. */
  async graded(): Promise<void> {
    await expect(this.submissionStatus).toHaveText('Submitted: grading it, this takes a few seconds…')
    await expect(this.button('Submit')).toBeDisabled()
    await expect(this.submissionStatus).toHaveText(/^Graded: \d+ \/ \d+\.$/, { timeout: 60_000 })
    await expect(this.button('Submit')).toBeEnabled()
  }

  /** Confirms the open reset dialog and waits until the files are back. */
  async confirmReset(): Promise<void> {
    await expect(this.resetDialog).toBeVisible()
    await this.resetDialog.getByRole('button', { name: 'Reset', exact: true }).click()
    await expect(this.resetResult).toHaveText('The starting files are back.')
  }
}
