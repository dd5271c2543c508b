import { describe, expect, it } from 'vitest'
import { languageOfPath } from './languageOfPath'

describe('languageOfPath', () => {
  it('guesses the common languages by extension, in any case', () => {
    expect(languageOfPath('/home/user/main.py')).toBe('python')
    expect(languageOfPath('/home/user/App.TSX')).toBe('typescript')
    expect(languageOfPath('/home/user/lib/index.mjs')).toBe('javascript')
  })

  it('knows nothing of other files, of dotfiles, or of a dot in a folder name', () => {
    expect(languageOfPath('/home/user/main.c')).toBeUndefined()
    expect(languageOfPath('/home/user/.py')).toBeUndefined()
    expect(languageOfPath('/home/user/v1.py/Makefile')).toBeUndefined()
  })
})
