// Predictive echo on xterm's own parser (the headless build): a shell played by a small line
// editor answers keys 40 ms after they are typed, its output reaching the screen 40 ms later.
// One terminal gets predictions, one only the shell's output; after every step the predicted
// screen may differ only by keys still unanswered, and at the end the two are the same, cell for
// cell, style included.
import { Terminal } from '@xterm/headless'
import { describe, expect, it } from 'vitest'
import { PredictiveEcho } from './predictiveEcho'
import { xtermPredictionScreen } from './xtermPredictionScreen'

const prompt = 'user@sandbox:~$ '

/** A shell's line editing, as bash 5's readline echoes it (checked byte for byte), with a few programs. */
class FakeShell {
  private line = ''
  private at = 0
  private mode: 'prompt' | 'silent' | 'vim' = 'prompt'
  constructor(private readonly out: (data: string) => void) {
    out(prompt)
  }
  get silent() {
    return this.mode === 'silent'
  }
  get inVim() {
    return this.mode === 'vim'
  }
  key(k: string): void {
    const answer = this.answer(k)
    if (answer) this.out(answer)
  }
  /** What the shell writes for key `k`. */
  private answer(k: string): string {
    if (this.mode === 'vim') {
      if (k === 'q') {
        this.mode = 'prompt'
        return `\x1b[?1049l${prompt}`
      }
      return k.length === 1 && k >= ' ' && k <= '~' ? `\x1b[5;5H${k}` : ''
    }
    if (this.mode === 'silent') {
      if (k !== '\r') return ''
      this.mode = 'prompt'
      return `\r\n${prompt}`
    }
    if (k === '\r') return this.run()
    if (k === '\x7f') {
      if (this.at === 0) return '\x07'
      const rest = this.line.slice(this.at)
      this.line = this.line.slice(0, this.at - 1) + rest
      this.at--
      return rest ? `\b\x1b[1P${rest}${'\b'.repeat(rest.length)}` : '\b\x1b[K'
    }
    if (k === '\x1b[D') {
      if (this.at === 0) return '\x07'
      this.at--
      return '\b'
    }
    if (k === '\x1b[C') {
      if (this.at === this.line.length) return '\x07'
      this.at++
      return '\x1b[C'
    }
    if (k === '\t') {
      // Completion: the word is finished for the user.
      this.line += 'pletion '
      this.at = this.line.length
      return 'pletion '
    }
    const rest = this.line.slice(this.at)
    this.line = this.line.slice(0, this.at) + k + rest
    this.at++
    return k + rest + '\b'.repeat(rest.length)
  }
  private run(): string {
    const command = this.line
    this.line = ''
    this.at = 0
    if (command === 'read -s') {
      this.mode = 'silent'
      return '\r\n'
    }
    if (command === 'vim') {
      this.mode = 'vim'
      return '\r\n\x1b[?1049h\x1b[H\x1b[2J~\r\n~\r\n~'
    }
    if (command === 'rewrite') return `\r\n50%\r\x1b[K100%\r\n${prompt}`
    return `\r\nran: ${command}\r\n${prompt}`
  }
}

/** Events in time order: keys reaching the shell, output reaching the screen, timers. */
class Clock {
  now = 0
  private events: { at: number; seq: number; run: () => void }[] = []
  private seq = 0
  at(ms: number, run: () => void): () => void {
    const event = { at: this.now + ms, seq: this.seq++, run }
    this.events.push(event)
    return () => {
      this.events = this.events.filter((e) => e !== event)
    }
  }
  async advance(to: number, settle: () => Promise<void>): Promise<void> {
    for (;;) {
      this.events.sort((a, b) => a.at - b.at || a.seq - b.seq)
      const next = this.events[0]
      if (!next || next.at > to) break
      this.events.shift()
      this.now = next.at
      next.run()
      await settle()
    }
    this.now = to
  }
}

const flush = (term: Terminal) => new Promise<void>((resolve) => term.write('', resolve))

function screenOf(term: Terminal): string[] {
  const buffer = term.buffer.active
  const rows: string[] = []
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y)
    let dims = ''
    for (let x = 0; x < term.cols; x++) dims += line?.getCell(x)?.isDim() ? 'd' : '.'
    rows.push(`${line?.translateToString(true)}|${dims.replace(/\.+$/, '')}`)
  }
  return [...rows, `${buffer.type} cursor ${buffer.cursorX},${buffer.cursorY}`]
}

function setUp({ enabled = (): boolean => true } = {}) {
  const clock = new Clock()
  const options = { cols: 80, rows: 24, allowProposedApi: true }
  const predicted = new Terminal(options)
  const truth = new Terminal(options)
  // As in the page, output being written counts as unparsed while prediction sees it.
  let unparsedOutput = 0
  const prediction = new PredictiveEcho(
    xtermPredictionScreen(predicted, () => unparsedOutput === 0),
    {
      enabled,
      giveUpMs: 1000,
      setTimer: (fire, ms) => clock.at(ms, fire),
    },
  )
  const encoder = new TextEncoder()
  const shell = new FakeShell((data) => {
    const bytes = encoder.encode(data)
    clock.at(40, () => {
      truth.write(bytes)
      unparsedOutput++
      predicted.write(prediction.output(bytes), () => unparsedOutput--)
    })
  })
  const settle = async () => {
    await flush(predicted)
    await flush(truth)
  }
  return {
    clock,
    predicted,
    truth,
    prediction,
    shell,
    settle,
    async type(key: string, gapMs = 30) {
      prediction.input(key)
      clock.at(40, () => shell.key(key))
      await settle()
      await clock.advance(clock.now + gapMs, settle)
    },
    async quiet() {
      await clock.advance(clock.now + 5000, settle)
    },
  }
}

describe('PredictiveEcho', () => {
  it('draws keys typed at a prompt at once, dimmed, once the line echoes, and ends with the shell’s screen', async () => {
    const t = setUp()
    await t.quiet()
    await t.type('e', 100) // the first key of a line is not drawn until it is echoed as typed
    expect(t.prediction.shown).toBe('')
    await t.type('c', 5)
    // Drawn before the sandbox answered: the shell has not seen 'c' yet.
    expect(t.prediction.shown).toBe('c')
    expect(screenOf(t.predicted)[0]).toBe(`${prompt}ec|${'.'.repeat(prompt.length + 1)}d`)
    for (const k of 'ho hi') await t.type(k, 5)
    expect(t.prediction.shown.length).toBeGreaterThan(0)
    await t.quiet()
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
    await t.type('\r')
    await t.quiet()
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
  })

  it('draws backspace and left and right at once too: an edit in the middle of the line shows before the shell answers', async () => {
    const t = setUp()
    await t.quiet()
    for (const k of 'echo hello') await t.type(k, 100)
    await t.quiet()
    // Quick keys: a typo taken back, then a letter put two places to the left.
    for (const k of ['x', '\x7f', '\x7f', '\x1b[D', '\x1b[D', 'L', '\x1b[C']) await t.type(k, 5)
    // The shell has answered none of them yet; the line shows their effect, the new letter dimmed.
    expect(screenOf(t.truth)[0]).toBe(`${prompt}echo hello|`)
    const cells = `${prompt}echo heLll`
    expect(screenOf(t.predicted)[0]).toBe(`${cells}|${'.'.repeat(cells.length - 3)}d`)
    // The cursor is where the last key left it: right of the L's neighbour.
    expect(screenOf(t.predicted).at(-1)).toBe(`normal cursor ${cells.length - 1},0`)
    await t.quiet()
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
    expect(screenOf(t.truth)[0]).toBe(`${cells}|`)
  })

  it('never predicts a backspace or a move into the prompt', async () => {
    const t = setUp()
    await t.quiet()
    await t.type('a', 100)
    await t.quiet()
    for (const k of ['\x7f', '\x7f', '\x1b[D']) await t.type(k, 5)
    // The first backspace is drawn (it takes the 'a' the shell echoed); the second would reach
    // into the prompt, so it and what follows wait for the shell.
    expect(screenOf(t.predicted)[0]).toBe(`${prompt}|`)
    await t.quiet()
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
  })

  it('draws nothing where the shell does not echo (read -s), nor in the alternate screen (vim)', async () => {
    const t = setUp()
    await t.quiet()
    for (const k of 'read -s\r') await t.type(k)
    await t.quiet()
    for (const k of 'password') {
      await t.type(k, 5)
      expect(t.prediction.shown).toBe('')
    }
    await t.type('\r')
    await t.quiet()
    for (const k of 'vim\r') await t.type(k)
    await t.quiet()
    expect(t.predicted.buffer.active.type).toBe('alternate')
    for (const k of 'iabc') {
      await t.type(k, 5)
      expect(t.prediction.shown).toBe('')
    }
    await t.type('q')
    await t.quiet()
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
  })

  it('stays off while the setting is off', async () => {
    const t = setUp({ enabled: () => false })
    await t.quiet()
    for (const k of 'echo hi') {
      await t.type(k, 5)
      expect(t.prediction.shown).toBe('')
    }
  })

  it('after 1,000 keys of editing (backspace, arrows, completion, a rewritten line, read -s, vim), shows exactly the shell’s screen', async () => {
    const t = setUp()
    await t.quiet()
    // A fixed pseudo-random script: mostly letters, with every kind of key among them.
    let seed = 20261124
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const specials = ['\x7f', '\x7f', '\x1b[D', '\x1b[C', '\t', '\r']
    const programs = ['read -s\r', 'vim\r', 'rewrite\r']
    let keys = 0
    let drawnSomewhere = 0
    let editsDrawn = 0
    while (keys < 1000) {
      const r = next()
      let script: string[]
      if (r < 0.03) script = [...(programs[Math.floor(next() * programs.length)] as string)]
      else if (r < 0.15) script = [specials[Math.floor(next() * specials.length)] as string]
      else script = [String.fromCharCode(97 + Math.floor(next() * 26))]
      for (const key of script) {
        const silent = t.shell.silent || t.shell.inVim
        await t.type(key, 5 + Math.floor(next() * 60))
        if (silent) expect(t.prediction.drawing, `drawn while the shell echoes nothing (${keys})`).toBe(false)
        if (t.prediction.shown) drawnSomewhere++
        if (t.prediction.drawing && ['\x7f', '\x1b[D', '\x1b[C'].includes(key)) editsDrawn++
        keys++
      }
      // Leave read -s and vim behind so the script goes on at a prompt.
      if (t.shell.silent) await t.type('\r')
      if (t.shell.inVim) await t.type('q')
      if (keys % 97 === 0) {
        await t.quiet()
        expect(screenOf(t.predicted), `after ${keys} keys`).toEqual(screenOf(t.truth))
      }
    }
    await t.quiet()
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
    expect(drawnSomewhere).toBeGreaterThan(50)
    expect(editsDrawn).toBeGreaterThan(10)
  })

  it('takes back what the sandbox never answers', async () => {
    const t = setUp()
    await t.quiet()
    await t.type('a', 100)
    // The shell stops echoing without telling (stty -echo from elsewhere): played by dropping keys.
    t.prediction.input('b')
    expect(t.prediction.shown).toBe('b')
    await t.quiet()
    expect(t.prediction.shown).toBe('')
    expect(screenOf(t.predicted)).toEqual(screenOf(t.truth))
  })
})
