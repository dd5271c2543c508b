import { spawn } from 'node-pty'
import { describe, expect, it } from 'vitest'
import { interruptFlushes, interruptFlushesPer } from './interruptFlushes'

const cooked = `speed 38400 baud; rows 24; columns 80; line = 0;
intr = ^C; quit = ^\\; erase = ^?; kill = ^U; eof = ^D; eol = <undef>;
isig icanon iexten echo echoe echok -echonl -noflsh -xcase -tostop -echoprt`

describe('interruptFlushes', () => {
  it('says yes for a cooked terminal, and no in raw mode, with noflsh, or another intr', () => {
    expect(interruptFlushesPer(cooked)).toBe(true)
    expect(interruptFlushesPer(cooked.replace(/^isig /m, '-isig '))).toBe(false)
    expect(interruptFlushesPer(cooked.replace('-noflsh', 'noflsh'))).toBe(false)
    expect(interruptFlushesPer(cooked.replace('intr = ^C', 'intr = ^G'))).toBe(false)
  })

  it('reads a real terminal: cooked at first, raw after stty raw', async () => {
    const term = spawn('/bin/sh', ['-c', 'sleep 0.3; stty raw; sleep 5'], { encoding: null })
    const tty = (term as unknown as { ptsName: string }).ptsName
    try {
      expect(await interruptFlushes(tty)).toBe(true)
      await new Promise((r) => setTimeout(r, 600))
      expect(await interruptFlushes(tty)).toBe(false)
      expect(await interruptFlushes('/dev/no-such-tty')).toBe(false)
    } finally {
      term.kill()
    }
  })
})
