// Predictive echo (local echo), as Mosh and VS Code's terminal typeahead do it: on a slow link the
// keys typed at a shell's prompt (printable keys, backspace, left and right) are drawn at once,
// new characters dimmed, and taken back the moment the sandbox's own output arrives, which then
// draws the line as it really is.
//
// How it stays right: it keeps a model of the line being typed, the text the shell echoed on it
// and where its cursor is in that text, built only from echoes that matched the keys exactly.
// - A model starts when the shell echoes a printable key as typed, at the end of its line, on the
//   normal screen (never in vim, less, nano or tmux); a prompt with echo off (a password,
//   `read -s`) never echoes, so nothing is ever drawn there.
// - Predictions are drawn over the model's part of the line: from the first cell that differs
//   to the end of the line, the cursor put where the keys leave it. Taking them back redraws the
//   model's text as the shell has it. Nothing outside the model is ever touched: a backspace or
//   an arrow that would go past its start (into the prompt) is not predicted.
// - Every chunk of output first takes all predictions back, then is written as it came. If it
//   was exactly what the shell echoes for the oldest keys (as bash's readline does it), the model
//   moves on and the keys still unanswered are drawn again after it; anything else (a redraw, a
//   completion, a program's output, Enter's effects, another shell's way of echoing) ends the
//   model until a key is echoed as typed again.
// - Any other key (Enter, Tab, control keys, up and down) ends predicting on that line.
// - Predictions left unanswered for a while are taken back.

import { concatBytes } from '../../common/concatBytes'

/** What prediction needs of the terminal emulator. */
export interface PredictionScreen {
  /** Writes into the emulator, after everything written so far. */
  write(data: string): void
  /**
   * Where the cursor is, once everything written is drawn: undefined in the alternate screen.
   * `rest`: the text right of it on its line (trailing blanks trimmed); `styled`: the cell left of
   * it carries bold or dim, so predictions go unstyled (their style would end the line's).
   */
  cursor(): { x: number; cols: number; rest: string; styled: boolean } | undefined
  /** Everything written has been parsed. */
  idle(): boolean
}

export interface PredictiveEchoOptions {
  /** Whether predictions are drawn now (the setting, and for `auto` the measured round trip). */
  enabled(): boolean
  /** Unanswered predictions are taken back after this long. */
  giveUpMs?: number
  setTimer?: (fire: () => void, ms: number) => () => void
}

/** A key as the line editor takes it; `other` is any key whose effect is not predicted. */
type Key =
  | { kind: 'char'; char: string }
  | { kind: 'backspace' }
  | { kind: 'left' }
  | { kind: 'right' }
  | { kind: 'other' }

function keyOf(data: string): Key {
  if (data.length === 1 && data >= ' ' && data <= '~') return { kind: 'char', char: data }
  if (data === '\x7f' || data === '\b') return { kind: 'backspace' }
  if (data === '\x1b[D') return { kind: 'left' }
  if (data === '\x1b[C') return { kind: 'right' }
  return { kind: 'other' }
}

/** A line's typed text as cells, each marked when it is a prediction; and the cursor in it. */
interface Line {
  text: string
  fresh: boolean[]
  at: number
}

/**
 * A key's effect on a line, and what bash's readline writes for it; undefined where the effect
 * cannot be told (an `other` key, a move past either end of the model).
 */
function apply(line: Line, key: Key): { line: Line; echo: string } | undefined {
  const { text, fresh, at } = line
  const rest = text.slice(at)
  const back = '\b'.repeat(rest.length)
  switch (key.kind) {
    case 'char':
      return {
        line: {
          text: text.slice(0, at) + key.char + rest,
          fresh: [...fresh.slice(0, at), true, ...fresh.slice(at)],
          at: at + 1,
        },
        echo: key.char + rest + back,
      }
    case 'backspace':
      if (at === 0) return undefined
      return {
        line: {
          text: text.slice(0, at - 1) + rest,
          fresh: [...fresh.slice(0, at - 1), ...fresh.slice(at)],
          at: at - 1,
        },
        echo: rest ? `\b\x1b[1P${rest}${back}` : '\b\x1b[K',
      }
    case 'left':
      return at === 0 ? undefined : { line: { ...line, at: at - 1 }, echo: '\b' }
    case 'right':
      return at === text.length ? undefined : { line: { ...line, at: at + 1 }, echo: '\x1b[C' }
    default:
      return undefined
  }
}

const dim = '\x1b[2m'
const undim = '\x1b[22m'
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Moves the cursor `n` cells left (negative: right). */
const move = (n: number) => (n > 0 ? `\x1b[${n}D` : n < 0 ? `\x1b[${-n}C` : '')

export class PredictiveEcho {
  /** Keys sent whose echo has not come yet, oldest first. */
  private unanswered: Key[] = []
  /**
   * The line as the shell has it (from its echoes), and the screen column of its first cell once
   * known; undefined while no line is followed.
   */
  private model: (Line & { x: number | undefined }) | undefined
  /** What is drawn over the model now: the predicted line, from which cell on. */
  private drawn: { line: Line; from: number } | undefined
  /** Whether new characters are dimmed (decided per line, from the cursor's cell). */
  private styled = true
  private cancelGiveUp: (() => void) | undefined
  private readonly giveUpMs: number
  private readonly setTimer: NonNullable<PredictiveEchoOptions['setTimer']>

  constructor(
    private readonly screen: PredictionScreen,
    private readonly options: PredictiveEchoOptions,
  ) {
    this.giveUpMs = options.giveUpMs ?? 1500
    this.setTimer =
      options.setTimer ??
      ((fire, ms) => {
        const timer = setTimeout(fire, ms)
        return () => clearTimeout(timer)
      })
  }

  /** The predicted characters on screen now (for tests). */
  get shown(): string {
    const line = this.drawn?.line
    return line ? [...line.text].filter((_, i) => line.fresh[i]).join('') : ''
  }

  /** Whether anything predicted is on screen now (a character, or an edit of the line). */
  get drawing(): boolean {
    return this.drawn !== undefined
  }

  /** Input typed by the user, before it goes to the sandbox. */
  input(data: string): void {
    this.unanswered.push(keyOf(data))
    if (this.mayDraw()) this.screen.write(this.redraw())
  }

  /** Output from the sandbox, before it is written: the bytes to write instead. */
  output(data: Uint8Array): Uint8Array {
    if (this.unanswered.length === 0) {
      // The line changes in ways no key explains (a job's message, a redraw): stop following it.
      this.model = undefined
      return data
    }
    const takeBack = this.takeBack()
    const matched = this.matchEchoes(decoder.decode(data))
    if (matched === undefined) {
      // Not an echo: the effect of a key not predicted (Enter's command, Tab's completion), or a
      // surprise. Keys typed after the last such key most likely wait for their echoes still,
      // which may start a new line; the others are forgotten.
      const lastOther = this.unanswered.map((key) => key.kind).lastIndexOf('other')
      this.unanswered = lastOther < 0 ? [] : this.unanswered.slice(lastOther + 1)
      this.model = undefined
    }
    const redraw = this.mayDraw() ? this.redraw() : ''
    if (this.drawn) this.armGiveUp()
    else this.disarmGiveUp()
    if (!takeBack && !redraw) return data
    return concatBytes([encoder.encode(takeBack), data, encoder.encode(redraw)])
  }

  /** Takes back whatever is drawn (a resize, a reset, turning it off). */
  reset(): void {
    const takeBack = this.takeBack()
    this.unanswered = []
    this.model = undefined
    this.disarmGiveUp()
    if (takeBack) this.screen.write(takeBack)
  }

  dispose(): void {
    this.disarmGiveUp()
  }

  /**
   * Whether `output` is exactly the echo of the oldest keys: then the model moves on by them (or
   * starts, with a printable key echoed at the end of a line) and they leave the queue; returns
   * how many, or undefined when it is anything else.
   */
  private matchEchoes(output: string): number | undefined {
    const starting = this.model === undefined
    let line: Line = this.model ?? { text: '', fresh: [], at: 0 }
    let expected = ''
    for (let n = 0; n < this.unanswered.length; n++) {
      const key = this.unanswered[n] as Key
      // Without a model only a printable key can start one.
      if (starting && n === 0 && key.kind !== 'char') return undefined
      const step = apply(line, key)
      if (!step) return undefined
      expected += step.echo
      line = step.line
      if (!output.startsWith(expected)) return undefined
      if (expected.length < output.length) continue
      this.unanswered = this.unanswered.slice(n + 1)
      this.model = { ...line, fresh: line.fresh.map(() => false), x: this.model?.x }
      return n + 1
    }
    return undefined
  }

  /**
   * Where the model's line starts on screen, found the first time it is drawn over, once the
   * screen has parsed everything and shows the shell's line alone: the text right of the cursor
   * must be the model's own rest and nothing more, on the normal screen, or the model is given
   * up. Once it is known, drawing needs no look at the screen: every output goes through here
   * first, so what is drawn always follows what was written, whenever it is parsed.
   */
  private locate(model: Line & { x: number | undefined }): number | undefined {
    if (model.x !== undefined) return model.x
    if (!this.screen.idle()) return undefined
    const at = this.screen.cursor()
    if (!at || at.rest !== model.text.slice(model.at) || at.x < model.at) {
      this.model = undefined
      return undefined
    }
    this.styled = !at.styled
    model.x = at.x - model.at
    return model.x
  }

  private mayDraw(): boolean {
    return this.model !== undefined && this.options.enabled()
  }

  /** Takes back what is drawn, then draws the line the unanswered keys lead to (when it fits). */
  private redraw(): string {
    const model = this.model
    if (!model) return this.takeBack()
    const x = this.drawn ? model.x : this.locate(model)
    if (x === undefined) return this.takeBack()
    let line: Line = model
    for (const key of this.unanswered) {
      const step = apply(line, key)
      if (!step) break
      line = step.line
    }
    const cols = this.screen.cursor()?.cols ?? 0
    const unchanged = line.text === model.text && line.at === model.at
    const fits = x + line.text.length + 1 < cols
    const takeBack = this.takeBack()
    if (unchanged || !fits) return takeBack
    let from = 0
    while (from < line.text.length && from < model.text.length && line.text[from] === model.text[from]) from++
    from = Math.min(from, model.at, line.at)
    let cells = ''
    for (let i = from; i < line.text.length; i++) {
      const char = line.text[i] as string
      cells += line.fresh[i] && this.styled ? `${dim}${char}${undim}` : char
    }
    this.drawn = { line, from }
    this.armGiveUp()
    return `${takeBack}${move(model.at - from)}\x1b[K${cells}${move(line.text.length - line.at)}`
  }

  /** What takes the drawn predictions back: the model's text rewritten where they were. */
  private takeBack(): string {
    const drawn = this.drawn
    const model = this.model
    this.drawn = undefined
    if (!drawn || !model) return ''
    const { line, from } = drawn
    return `${move(line.at - from)}\x1b[K${model.text.slice(from)}${move(model.text.length - model.at)}`
  }

  private armGiveUp(): void {
    this.disarmGiveUp()
    this.cancelGiveUp = this.setTimer(() => {
      this.cancelGiveUp = undefined
      this.reset()
    }, this.giveUpMs)
  }

  private disarmGiveUp(): void {
    this.cancelGiveUp?.()
    this.cancelGiveUp = undefined
  }
}
