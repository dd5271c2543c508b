import { expect, type Locator, type Page } from '@playwright/test'
import { WorkbenchPage } from './WorkbenchPage'

/** The teacher's dashboard of a class (`/class/{name}`, or `/e2b/{remoteId}/class/{name}`). */
export class ClassDashboardPage {
  constructor(
    readonly page: Page,
    readonly className: string,
  ) {}

  /** The class's deadline and its rules, under the toolbar. */
  get deadline(): Locator {
    return this.page.getByRole('form', { name: 'Deadline' })
  }

  /**
   * Fills the deadline form as a teacher does: the time (as its datetime-local field takes it),
   * late work taken less `penaltyPercent` a day, and which grade counts when given. Not saved.
   */
  async fillDeadline(due: string, penaltyPercent: number, counts?: string): Promise<void> {
    const form = this.deadline
    await form.getByRole('textbox', { name: 'Deadline', exact: true }).fill(due)
    await form
      .getByRole('combobox', { name: 'After it' })
      .selectOption({ label: 'take them late, less a penalty' })
    await form.getByRole('spinbutton', { name: 'Penalty per day started (%)' }).fill(String(penaltyPercent))
    if (counts)
      await form.getByRole('combobox', { name: 'Grade that counts' }).selectOption({ label: counts })
  }

  /** The dialog of a student's Extension… (their own deadline). */
  extensionDialog(student: string): Locator {
    return this.page.getByRole('dialog', { name: `An extension for ${student}` })
  }

  /** A student's row. */
  row(student: string): Locator {
    return this.page
      .getByRole('table', { name: `Students of ${this.className}` })
      .getByRole('row', { name: student })
  }

  /** Runs the lab's check for everyone; waits for the summary, e.g. "1 of 2 passing". */
  async checkEveryone(summary: string): Promise<void> {
    await this.page
      .getByRole('toolbar', { name: 'The whole class' })
      .getByRole('button', { name: 'Run the check for everyone' })
      .click()
    // The check's own status, not the deadline form's.
    const status = this.page.getByRole('status').filter({ hasText: /passing|Checking/ })
    await expect(status).toHaveText(summary, { timeout: 30_000 })
  }

  /**
   * Opens a student's workspace in a new tab and checks it is the student's live one: their
   * terminal shows `theirOutput`, and what the teacher types there shows on the student's page.
   * Returns the workspace, still open.
   */
  async openLiveWorkspace(
    student: string,
    theirOutput: string,
    theirs: WorkbenchPage,
  ): Promise<WorkbenchPage> {
    const opened = this.page.context().waitForEvent('page')
    await this.row(student)
      .getByRole('link', { name: `Open ${student}'s workspace` })
      .click()
    const workspace = new WorkbenchPage(await opened)
    await expect(workspace.state).toHaveText('Running', { timeout: 20_000 })
    await expect(workspace.terminalRows).toContainText(theirOutput, { timeout: 20_000 })
    await workspace.run('echo teacher-says-$((20+1))', 'teacher-says-21')
    await expect(theirs.terminalRows).toContainText('teacher-says-21')
    await expect(theirs.toolbar.getByRole('status')).toHaveText('Your teacher is here', { timeout: 15_000 })
    return workspace
  }

  /** Ends the class after answering its question; the dashboard then says there is no such class. */
  async endClass(): Promise<void> {
    await this.page.getByRole('button', { name: 'End the class…' }).click()
    await this.page
      .getByRole('alertdialog', { name: `End the class ${this.className}?` })
      .getByRole('button', { name: 'End the class' })
      .click()
    await expect(this.page.getByRole('alert')).toContainText(`no class '${this.className}'`, {
      timeout: 15_000,
    })
  }
}
