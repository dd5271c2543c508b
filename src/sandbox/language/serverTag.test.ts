import { describe, expect, it } from 'vitest'
import { languageInstallTag, languageServerTag, parseLanguageTag } from './serverTag'

describe('the tags of code intelligence’s processes', () => {
  it('reads back the server, the tab and the name a tag was made with', () => {
    const tag = languageServerTag('python', 'f3c1a2', 'Pyright')
    expect(tag).toBe('ide-lsp:python:f3c1a2:Pyright')
    expect(parseLanguageTag(tag)).toEqual({ kind: 'server', key: 'python', tabId: 'f3c1a2', name: 'Pyright' })
    expect(parseLanguageTag(languageInstallTag('typescript', 'TypeScript'))).toEqual({
      kind: 'install',
      key: 'typescript',
      name: 'TypeScript',
    })
  })

  it('keeps a key or a name with colons and spaces whole', () => {
    const tag = languageServerTag('c:cpp', 'tab', 'C/C++: clangd 18')
    expect(tag.split(':')).toHaveLength(4)
    expect(parseLanguageTag(tag)).toMatchObject({ key: 'c:cpp', tabId: 'tab', name: 'C/C++: clangd 18' })
  })

  it('is nothing for any other tag, or one that is not whole', () => {
    for (const tag of [
      undefined,
      '',
      'ide-terminal:1234',
      'lab-check',
      'ide-lsp:python',
      'ide-lsp:python:tab',
      'ide-lsp:python::Pyright',
      'ide-lsp:python:tab:Pyright:extra',
      'ide-lsp:python:tab:%E0%A4%A',
      'my-ide-lsp:python:tab:Pyright',
      'ide-lsp-install:python',
    ])
      expect(parseLanguageTag(tag), String(tag)).toBeUndefined()
  })
})
