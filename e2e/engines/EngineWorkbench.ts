import type { EnginePage } from './enginePage'

/** What a role means in the IDE's markup: explicit roles, and the elements that have them implicitly. */
const roleSelectors: Record<string, string> = {
  button: 'button, [role="button"]',
  textbox: 'input:not([type]), input[type="text"], textarea, [role="textbox"]',
  searchbox: 'input[type="search"], [role="searchbox"]',
  treeitem: '[role="treeitem"]',
  tab: '[role="tab"]',
  dialog: 'dialog:not([role]), [role="dialog"]',
  tree: '[role="tree"]',
}

/** Text to look for, as a pattern that crosses into the page: a string matches itself exactly. */
function asPattern(text: string | RegExp, whole: boolean): { source: string; flags: string } {
  if (typeof text !== 'string') return { source: text.source, flags: text.flags }
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return { source: whole ? `^${escaped}$` : escaped, flags: '' }
}

/**
 * In the page: the first shown, enabled element matching `selector` whose accessible name
 * (aria-labelledby's text, else aria-label, else its text; Monaco's spaces are non-breaking)
 * matches the pattern.
 */
function findNamed(selector: string, source: string, flags: string): Element | null {
  const pattern = new RegExp(source, flags)
  for (const el of document.querySelectorAll(selector)) {
    const box = (el as HTMLElement).getBoundingClientRect()
    if ((box.width === 0 && box.height === 0) || (el as HTMLButtonElement).disabled) continue
    const by = el.getAttribute('aria-labelledby')
    const label = by ? document.getElementById(by)?.textContent : el.getAttribute('aria-label')
    if (pattern.test((label ?? el.textContent ?? '').trim().replace(/\s+/g, ' '))) return el
  }
  return null
}

/** In the page: everything the terminals show, one line per row, from their test hook (e2e/README.md). */
function terminalText(): string {
  return [...document.querySelectorAll('[data-testid="terminal-text"]')]
    .map((el) => [...el.children].map((row) => row.textContent ?? '').join('\n'))
    .join('\n')
}

/**
 * The workbench as a user reaches it, in any engine: by role and accessible name, the same names
 * the Chromium tests select by; keys go to what has the focus, as a user's do.
 */
export class EngineWorkbench {
  constructor(readonly page: EnginePage) {}

  /** Waits until an element of `role` named `name` (exactly, or matching) shows. */
  async shows(role: string, name: string | RegExp, timeoutMs = 15_000): Promise<void> {
    const { source, flags } = asPattern(name, true)
    await this.page.waitUntil(
      findNamed,
      [roleSelectors[role] ?? `[role="${role}"]`, source, flags],
      timeoutMs,
    )
  }

  /** Waits until nothing of `role` named `name` shows. */
  async gone(role: string, name: string, timeoutMs = 15_000): Promise<void> {
    const { source, flags } = asPattern(name, true)
    await this.page.waitUntil(
      (selector: string, source: string, flags: string) => {
        const pattern = new RegExp(source, flags)
        return ![...document.querySelectorAll(selector)].some(
          (el) =>
            pattern.test((el.getAttribute('aria-label') ?? el.textContent ?? '').trim()) &&
            (el as HTMLElement).getBoundingClientRect().height > 0,
        )
      },
      [roleSelectors[role] ?? `[role="${role}"]`, source, flags],
      timeoutMs,
    )
  }

  /** Clicks an element by role and name with the driver's pointer, once it shows and is enabled. */
  async click(role: string, name: string | RegExp): Promise<void> {
    await this.shows(role, name)
    const { source, flags } = asPattern(name, true)
    await this.page.click(findNamed, roleSelectors[role] ?? `[role="${role}"]`, source, flags)
  }

  async waitForState(state: string, timeoutMs = 20_000): Promise<void> {
    await this.page.waitUntil(
      (state: string) => document.querySelector('[data-testid="sandbox-state"]')?.textContent === state,
      [state],
      timeoutMs,
    )
  }

  /** What the terminals show. */
  terminalText(): Promise<string> {
    return this.page.evaluate(terminalText)
  }

  /** Waits until the terminals show `text` (read from here: the reader stays one function). */
  async terminalShows(text: string | RegExp, timeoutMs = 15_000): Promise<void> {
    const { source, flags } = asPattern(text, false)
    const pattern = new RegExp(source, flags)
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const shown = await this.terminalText()
      if (pattern.test(shown)) return
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${pattern}; it shows:\n${shown}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** Opens the IDE at `link` and waits for a running sandbox and a shell prompt. */
  async open(link: string): Promise<void> {
    await this.page.goto(link)
    await this.waitForState('Running')
    await this.terminalShows('$', 20_000)
  }

  /** Types into the visible terminal as a user at the keyboard. */
  async type(text: string): Promise<void> {
    await this.page.click(() => document.querySelector('[role="tabpanel"]:not([hidden]) .xterm-screen'))
    await this.page.keys(text)
  }

  /** Runs a shell command and waits for what the test expects in the output. */
  async run(command: string, expected: string | RegExp): Promise<void> {
    await this.type(`${command}\n`)
    await this.terminalShows(expected)
  }
}
