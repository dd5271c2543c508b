// Predictive echo (local echo), as Mosh and VS Code's terminal typeahead do it: on a slow link a
// printable key typed at the end of a shell's line is drawn at once, dimmed, and taken back the
// moment the sandbox's own output arrives, which then draws the line as it really is.
//
// The rules that keep it from ever leaving a wrong glyph:
// - Only printable ASCII typed at the end of a line of the normal screen, with nothing right of
//   the cursor and room before the margin: never in the alternate screen (vim, less, nano, tmux).
// - Nothing is drawn on a line until the sandbox has echoed a key of it as typed: a prompt with
//   echo off (a password, `read -s`) never echoes, so nothing is ever drawn there.
// - Every chunk of output first takes all drawn predictions back (cursor back, erase to the end of
//   the line: that space held only predictions), then is written as it came. If it was exactly the
//   echo of the oldest keys, the keys still unanswered are drawn again after it; anything else
//   (a redraw, a completion, a program's output, Enter's effects) ends predicting until a key is
//   echoed as typed again.
// - Any other key (Enter, backspace, arrows, control keys) ends predicting on that line too.
// - Predictions left unanswered for a while are taken back.

import { concatBytes } from '../../common/concatBytes'

/** What prediction needs of the terminal emulator. */
export interface PredictionScreen {
  /** Writes into the emulator, after everything written so far. */
  write(data: string): void
  /**
   * Where the cursor is, once everything written is drawn: undefined in the alternate screen.
   * `restEmpty`: nothing right of it on its line; `styled`: its cell carries bold or dim, so
   * predictions go unstyled (their style would end the line's).
   */
  cursor(): { x: number; cols: number; restEmpty: boolean; styled: boolean } | undefined
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

const dim = '\x1b[2m'
const undim = '\x1b[22m'
const encoder = new TextEncoder()

const isPrintable = (data: string) => data.length === 1 && data >= ' ' && data <= '~'
/** A key whose echo cannot be predicted: it matches no output. */
const barrier = ''

export class PredictiveEcho {
  /** Keys sent whose echo has not come yet, oldest first. */
  private unanswered: string[] = []
  /** How many of them, from the oldest, are drawn right of the shell's cursor. */
  private drawn = 0
  /** Whether the sandbox echoed a key of this line as typed, so keys are drawn. */
  private echoing = false
  /** Whether drawn predictions are dimmed (decided per line, from the cursor's cell). */
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

  /** Predicted keys on screen now (for tests and styling checks). */
  get shown(): string {
    return this.unanswered.slice(0, this.drawn).join('')
  }

  /** Input typed by the user, before it goes to the sandbox. */
  input(data: string): void {
    if (!isPrintable(data)) {
      // The line changes in ways not predicted: the keys before it may still be echoed as typed,
      // but no echo after it can be told, so it stands in the queue as a key matching nothing.
      this.echoing = false
      this.unanswered.push(barrier)
      return
    }
    this.unanswered.push(data)
    if (this.drawn !== this.unanswered.length - 1 || !this.mayDraw()) return
    const at = this.screen.cursor()
    if (!at?.restEmpty || at.x + 2 >= at.cols) return
    if (this.drawn === 0) this.styled = !at.styled
    this.screen.write(this.styledText(data))
    this.drawn++
    this.armGiveUp()
  }

  /** Output from the sandbox, before it is written: the bytes to write instead. */
  output(data: Uint8Array): Uint8Array {
    if (this.unanswered.length === 0) return data
    const shownBefore = this.drawn
    const takeBack = this.takeBackSequence()
    this.drawn = 0
    let matched = 0
    while (
      matched < data.length &&
      matched < this.unanswered.length &&
      data[matched] === this.unanswered[matched]?.charCodeAt(0)
    )
      matched++
    if (matched === data.length) {
      // Exactly the echo of the oldest keys: the line echoes as typed (unless other keys were
      // typed since, whose effect is still to come).
      this.unanswered = this.unanswered.slice(matched)
      this.echoing = !this.unanswered.includes(barrier)
    } else {
      this.unanswered = []
      this.echoing = false
    }
    let redraw = ''
    if (this.unanswered.length > 0 && this.mayDraw() && this.roomAfter(matched, shownBefore)) {
      redraw = this.styledText(this.unanswered.join(''))
      this.drawn = this.unanswered.length
    }
    if (this.drawn > 0) this.armGiveUp()
    else this.disarmGiveUp()
    if (!takeBack && !redraw) return data
    return concatBytes([encoder.encode(takeBack), data, encoder.encode(redraw)])
  }

  /** Takes back whatever is drawn (a resize, a reset, turning it off). */
  reset(): void {
    const takeBack = this.takeBackSequence()
    this.unanswered = []
    this.drawn = 0
    this.echoing = false
    this.disarmGiveUp()
    if (takeBack) this.screen.write(takeBack)
  }

  dispose(): void {
    this.disarmGiveUp()
  }

  private mayDraw(): boolean {
    return this.echoing && this.options.enabled() && this.screen.idle()
  }

  /**
   * Whether the keys still unanswered fit after an echo of `matched` keys: the cursor is where
   * the shell has it plus the `shownBefore` predictions drawn (taken back now), the line right of
   * it empty.
   */
  private roomAfter(matched: number, shownBefore: number): boolean {
    const at = this.screen.cursor()
    if (!at) return false
    const x = at.x - shownBefore + matched
    return (shownBefore > 0 || at.restEmpty) && x + this.unanswered.length + 1 < at.cols
  }

  /** What takes the drawn predictions back: the cursor back over them, the line erased from there. */
  private takeBackSequence(): string {
    return this.drawn > 0 ? `\x1b[${this.drawn}D\x1b[K` : ''
  }

  private styledText(text: string): string {
    return this.styled ? `${dim}${text}${undim}` : text
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
