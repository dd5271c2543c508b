import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'

/** A terminal's text from its test hook (e2e/README.md), one line per row. */
export async function readTerminalText(rows: Locator): Promise<string> {
  return (await rows.evaluate((el) => [...el.children].map((r) => r.textContent ?? '').join('\n'))).trimEnd()
}

/** The workbench as a user sees it: toolbar, terminal, palette, status bar. */
export class WorkbenchPage {
  readonly toolbar: Locator
  readonly state: Locator
  readonly terminal: Locator
  /**
   * The rows the visible terminal shows, one `div` each, as the IDE's test hook mirrors them (the
   * WebGL renderer draws on a canvas and leaves no text to read); see e2e/README.md.
   */
  readonly terminalRows: Locator
  readonly status: Locator
  readonly palette: Locator

  constructor(readonly page: Page) {
    this.toolbar = page.getByRole('toolbar', { name: 'Sandbox' })
    this.state = page.getByTestId('sandbox-state')
    // The region of the visible terminal tab's panel that holds a terminal (the sidebar's views are tab panels too).
    this.terminal = page
      .getByRole('tabpanel')
      .filter({ visible: true })
      .getByRole('region')
      .filter({ has: page.getByTestId('terminal-text') })
      .first()
    this.terminalRows = this.terminal.getByTestId('terminal-text')
    this.status = page.getByTestId('connection-status')
    this.palette = page.getByRole('dialog', { name: 'Command palette' })
  }

  async goto(path = '/'): Promise<void> {
    await this.page.goto(path)
    await expect(this.state).toHaveText('Running', { timeout: 20_000 })
    await expect(this.terminalRows).toContainText('$', { timeout: 20_000 })
  }

  /** What the visible terminal shows, one line per row. */
  terminalText(): Promise<string> {
    return readTerminalText(this.terminalRows)
  }

  /** Waits until the shell prompts again (its last line ends in `$`). */
  async prompt(): Promise<void> {
    await expect.poll(async () => (await this.terminalText()).split('\n').at(-1)).toMatch(/\$$/)
  }

  /**
   * Where on the page the visible terminal draws `text` (its last occurrence, at character `offset`
   * of it): its row and column in the mirror, scaled to the cells of xterm's screen element, which
   * is exactly COLS×ROWS cells. Counts one cell a character, so use it on ASCII text.
   */
  async pointAt(text: string, offset = 0): Promise<{ x: number; y: number }> {
    const screen = await this.terminal.locator('.xterm-screen').boundingBox()
    const found = await this.terminalRows.evaluate((mirror, text) => {
      const [cols, rows] = (mirror.getAttribute('data-size') ?? '0x0').split('x').map(Number)
      const lines = [...mirror.children].map((r) => r.textContent ?? '')
      const row = lines.findLastIndex((line) => line.includes(text))
      return { cols, rows, row, col: lines[row]?.lastIndexOf(text) ?? -1 }
    }, text)
    if (!screen || !found.cols || !found.rows || found.row < 0) throw new Error(`"${text}" is not on screen`)
    const width = screen.width / found.cols
    const height = screen.height / found.rows
    return {
      x: screen.x + (found.col + offset + 0.5) * width,
      y: screen.y + (found.row + 0.5) * height,
    }
  }

  /** Selects a word the visible terminal shows by double-clicking it. */
  async selectWord(word: string): Promise<void> {
    const { x, y } = await this.pointAt(word, 1)
    await this.page.mouse.dblclick(x, y)
  }

  /** The clipboard's text (the context needs the clipboard-read permission). */
  clipboard(): Promise<string> {
    return this.page.evaluate(() => navigator.clipboard.readText())
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
