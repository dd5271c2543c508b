import { describe, expect, it } from 'vitest'
import { languageInstallTag, languageServerTag } from '../../sandbox/language/serverTag'
import { attachTitle, commandLine, isIdeTerminal, languageProcessLabel } from './commandLine'

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

describe('languageProcessLabel', () => {
  it('names a language server and its install by the server’s display name', () => {
    expect(languageProcessLabel(languageServerTag('python', 'tab-1', 'Pyright'))).toBe(
      'Language server: Pyright',
    )
    expect(languageProcessLabel(languageInstallTag('c', 'clangd'))).toBe('Installing language server: clangd')
  })

  it('leaves every other process to its command line', () => {
    expect(languageProcessLabel('ide-terminal:1234')).toBeUndefined()
    expect(languageProcessLabel(undefined)).toBeUndefined()
  })
})
