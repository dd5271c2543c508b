import type { Locator, Page } from '@playwright/test'

/** The page a browser that is not signed in gets: why not, and a field for the IDE's link. */
export class SignInPage {
  /** The whole page; where a sign-in this browser had stopped working, it also says why. */
  readonly main: Locator

  constructor(readonly page: Page) {
    this.main = page.getByRole('main', { name: 'Open the IDE with its link' })
  }
}
