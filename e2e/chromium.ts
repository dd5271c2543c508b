import type { LaunchOptions } from '@playwright/test'

/** Debian's Chromium: Playwright's own browser download cannot work on these machines. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Launch options for headless Chromium on a machine with no network beyond loopback. */
export function chromiumLaunchOptions(): LaunchOptions {
  return {
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Pages of one site in one context share a renderer process (see sharedContext.ts).
      '--process-per-site',
    ],
  }
}
