import type { ElementHandle, Frame, Page } from 'puppeteer-core'

/** What a role means in the IDE's markup: explicit roles, and the elements that have them implicitly. */
const roleSelectors: Record<string, string> = {
  button: 'button, [role="button"]',
  textbox: 'input:not([type]), input[type="text"], textarea, [role="textbox"]',
  treeitem: '[role="treeitem"]',
  tab: '[role="tab"]',
  dialog: 'dialog:not([role]), [role="dialog"]',
  tree: '[role="tree"]',
  log: '[role="log"]',
}

/** Text to look for, as a pattern that crosses into the page: a string matches itself exactly. */
function asPattern(text: string | RegExp, whole: boolean): { source: string; flags: string } {
  if (typeof text !== 'string') return { source: text.source, flags: text.flags }
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return { source: whole ? `^${escaped}$` : escaped, flags: '' }
}

/**
 * The workbench as a user reaches it, in any engine Puppeteer drives: by role and accessible
 * name (aria-label, else the text), the same names the Chromium tests select by.
 */
export class EngineWorkbench {
  constructor(readonly page: Page | Frame) {}

  /** The first element of `role` named `name` (exactly, or matching), once it exists and shows. */
  async byRole(role: string, name: string | RegExp, timeoutMs = 15_000): Promise<ElementHandle<Element>> {
    const selector = roleSelectors[role] ?? `[role="${role}"]`
    const pattern = asPattern(name, true)
    const handle = await this.page.waitForFunction(
      (selector, pattern) => {
        // aria-label, else the element aria-labelledby names, else the text (Monaco's spaces are non-breaking).
        const named = (el: Element) => {
          const by = el.getAttribute('aria-labelledby')
          const label = by ? document.getElementById(by)?.textContent : el.getAttribute('aria-label')
          return (label ?? el.textContent ?? '').trim().replace(/\s+/g, ' ')
        }
        for (const el of document.querySelectorAll(selector)) {
          const box = (el as HTMLElement).getBoundingClientRect()
          if (box.width === 0 && box.height === 0) continue
          const text = named(el)
          if (new RegExp(pattern.source, pattern.flags).test(text)) return el
        }
        return null
      },
      { timeout: timeoutMs },
      selector,
      pattern,
    )
    return handle as ElementHandle<Element>
  }

  /** Clicks an element by role and name, with the mouse, as a user does, once it is enabled. */
  async click(role: string, name: string | RegExp): Promise<void> {
    const element = await this.byRole(role, name)
    await this.page.waitForFunction((el) => !(el as HTMLButtonElement).disabled, {}, element)
    await element.click()
  }

  /** Waits until nothing of `role` named `name` shows. */
  async gone(role: string, name: string, timeoutMs = 15_000): Promise<void> {
    await this.page.waitForFunction(
      (selector, name) =>
        ![...document.querySelectorAll(selector)].some(
          (el) =>
            (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() === name &&
            (el as HTMLElement).getBoundingClientRect().height > 0,
        ),
      { timeout: timeoutMs },
      roleSelectors[role] ?? `[role="${role}"]`,
      name,
    )
  }

  /** The sandbox's state in the toolbar. */
  state(): Promise<string> {
    return this.page.$eval('[data-testid="sandbox-state"]', (el) => el.textContent ?? '')
  }

  async waitForState(state: string, timeoutMs = 20_000): Promise<void> {
    await this.page.waitForFunction(
      (state) => document.querySelector('[data-testid="sandbox-state"]')?.textContent === state,
      { timeout: timeoutMs },
      state,
    )
  }

  /** What the visible terminal shows, one line per row, from its test hook (e2e/README.md). */
  terminalText(): Promise<string> {
    return this.page.evaluate(() => {
      const rows = [...document.querySelectorAll('[data-testid="terminal-text"]')].find(
        (el) => (el as HTMLElement).offsetParent !== null || el.closest('[role="tabpanel"]:not([hidden])'),
      )
      return [...(rows?.children ?? [])]
        .map((r) => r.textContent ?? '')
        .join('\n')
        .trimEnd()
    })
  }

  /** Waits until the terminal shows `text`. */
  async terminalShows(text: string | RegExp, timeoutMs = 15_000): Promise<void> {
    const pattern = asPattern(text, false)
    await this.page.waitForFunction(
      (pattern) => {
        const shown = [...document.querySelectorAll('[data-testid="terminal-text"]')]
          .map((el) => [...el.children].map((r) => r.textContent ?? '').join('\n'))
          .join('\n')
        return new RegExp(pattern.source, pattern.flags).test(shown)
      },
      { timeout: timeoutMs },
      pattern,
    )
  }

  /** Opens the IDE at `link` and waits for a running sandbox and a shell prompt. */
  async open(link: string): Promise<void> {
    if (!('goto' in this.page)) throw new Error('a frame is opened by its page')
    await this.page.goto(link)
    await this.waitForState('Running')
    await this.terminalShows('$', 20_000)
  }

  /** Types into the terminal as a user at the keyboard. */
  async type(text: string): Promise<void> {
    const input = await this.page.waitForSelector('[role="tabpanel"]:not([hidden]) .xterm-helper-textarea')
    await input?.focus()
    const keyboard = 'keyboard' in this.page ? this.page.keyboard : this.page.page().keyboard
    await keyboard.type(text)
  }

  /** Runs a shell command and waits for a line the test expects in the output. */
  async run(command: string, expected: string | RegExp): Promise<void> {
    await this.type(`${command}\n`)
    await this.terminalShows(expected)
  }
}
