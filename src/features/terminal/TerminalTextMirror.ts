import type { IDisposable, Terminal } from '@xterm/xterm'

/** How often, at most, the mirror follows the screen. */
const intervalMs = 50

/**
 * A test hook: the rows a terminal shows, as plain text in a hidden element (one `div` a row,
 * `data-testid="terminal-text"`, with `data-size="COLSxROWS"` and `data-cursor="X,Y"`), because the
 * WebGL renderer draws on a canvas and leaves no text in the DOM. It copies xterm's buffer at most
 * every 50 ms and does no per-character work (unlike screen-reader mode, which slowed a flood
 * several-fold), so what the tests measure is the terminal users get. Made only under browser
 * automation (`navigator.webdriver`, as with Playwright). See e2e/README.md.
 */
export class TerminalTextMirror {
  private readonly element = document.createElement('div')
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly subscriptions: IDisposable[]

  /** A mirror of `term` inside `parent` when the page runs under automation, else nothing. */
  static forTests(term: Terminal, parent: HTMLElement): TerminalTextMirror | undefined {
    return navigator.webdriver ? new TerminalTextMirror(term, parent) : undefined
  }

  private constructor(
    private readonly term: Terminal,
    parent: HTMLElement,
  ) {
    this.element.dataset.testid = 'terminal-text'
    this.element.hidden = true
    this.element.setAttribute('aria-hidden', 'true')
    parent.appendChild(this.element)
    const schedule = () => this.schedule()
    this.subscriptions = [term.onWriteParsed(schedule), term.onScroll(schedule), term.onResize(schedule)]
    this.schedule()
  }

  dispose(): void {
    clearTimeout(this.timer)
    for (const subscription of this.subscriptions) subscription.dispose()
    this.element.remove()
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      this.copy()
    }, intervalMs)
  }

  private copy(): void {
    const buffer = this.term.buffer.active
    const rows = Array.from({ length: this.term.rows }, (_, y) => {
      const row = document.createElement('div')
      row.textContent = buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? ''
      return row
    })
    this.element.replaceChildren(...rows)
    this.element.dataset.size = `${this.term.cols}x${this.term.rows}`
    this.element.dataset.cursor = `${buffer.cursorX},${buffer.cursorY}`
  }
}
