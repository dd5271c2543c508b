import { describe, expect, it } from 'vitest'
import { attachTitle, commandLine, isIdeTerminal } from './commandLine'

const config = (cmd: string, args: string[] = []) => ({ cmd, args })

describe('commandLine', () => {
  it('joins cmd and plain args with spaces', () => {
    expect(commandLine(config('/bin/bash', ['-l']))).toBe('/bin/bash -l')
  })

  it('quotes args that a shell would split or expand, as text', () => {
    expect(commandLine(config('sh', ['-c', `trap "" TERM; echo it's`]))).toBe(
      `sh -c 'trap "" TERM; echo it'\\''s'`,
    )
    expect(commandLine(config('echo', ['', '<b>x</b>']))).toBe(`echo '' '<b>x</b>'`)
  })

  it('is empty without a config', () => {
    expect(commandLine(undefined)).toBe('')
  })
})

describe('isIdeTerminal', () => {
  it('recognises the tags of the IDE’s own shells only', () => {
    expect(isIdeTerminal('ide-terminal:1234')).toBe(true)
    expect(isIdeTerminal('my-ide-terminal:1')).toBe(false)
    expect(isIdeTerminal(undefined)).toBe(false)
  })
})

describe('attachTitle', () => {
  it('names the terminal after the program and pid', () => {
    expect(attachTitle(config('/usr/bin/python3', ['app.py']), 42)).toBe('python3 42')
    expect(attachTitle(undefined, 7)).toBe('process 7')
  })
})
