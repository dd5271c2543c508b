import puppeteer, { type Browser } from 'puppeteer-core'

/** Debian's Firefox ESR, driven over WebDriver BiDi by Puppeteer (Playwright cannot drive stock Firefox). */
export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'

/** Headless Firefox ESR with a fresh profile, as a student's browser would open the IDE. */
export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    protocol: 'webDriverBiDi',
    // Nothing beyond loopback on these machines: no update checks, telemetry or captive portal probes.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
    },
  })
}
