import { expect, type Locator, type Page } from '@playwright/test'

/** The owner's Share dialog: a new link's rights, expiry and name, the link made, the list. */
export class ShareDialogPage {
  readonly dialog: Locator

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Share this sandbox' })
  }

  /** Opens the dialog from the toolbar, makes a link and answers its address. */
  async makeLink(rights: 'View only' | 'Edit', name: string): Promise<string> {
    await this.page
      .getByRole('toolbar', { name: 'Sandbox' })
      .getByRole('button', { name: 'Share', exact: true })
      .click()
    await expect(this.dialog).toBeVisible()
    await this.dialog.getByRole('radio', { name: rights }).check()
    await this.dialog.getByRole('textbox', { name: 'Their name' }).fill(name)
    await this.dialog.getByRole('button', { name: 'Make link' }).click()
    const field = this.dialog.getByRole('textbox', { name: 'Share link' })
    await expect(field).toHaveValue(/\/join#token=[A-Za-z0-9_-]{43}$/)
    return field.inputValue()
  }

  /** Revokes a guest's link from the open dialog. */
  async revoke(name: string): Promise<void> {
    await this.dialog.getByRole('button', { name: `Revoke ${name}'s link` }).click()
    await expect(this.dialog.getByRole('status')).toHaveText(`${name}'s link was revoked.`)
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape')
    await expect(this.dialog).toBeHidden()
  }
}
