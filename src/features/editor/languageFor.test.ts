import { describe, expect, it } from 'vitest'
import { type LanguageInfo, languageFor } from './languageFor'

const languages: LanguageInfo[] = [
  { id: 'javascript', extensions: ['.js', '.mjs'] },
  { id: 'typescript', extensions: ['.ts', '.tsx'] },
  { id: 'dts', extensions: ['.d.ts'] },
  { id: 'dockerfile', extensions: ['.dockerfile'], filenames: ['Dockerfile'] },
  { id: 'shell', extensions: ['.sh', '.bashrc'], firstLine: '^#!.*\\b(bash|sh)\\b' },
  { id: 'python', extensions: ['.py'], firstLine: '^#!/.*\\bpython[0-9.-]*\\b' },
  { id: 'broken', firstLine: '(' },
]

describe('languageFor', () => {
  it('picks by extension, the longest one winning, whatever the case', () => {
    expect(languageFor('main.ts', '', languages)).toBe('typescript')
    expect(languageFor('types.d.ts', '', languages)).toBe('dts')
    expect(languageFor('APP.JS', '', languages)).toBe('javascript')
    expect(languageFor('.bashrc', '', languages)).toBe('shell')
  })

  it('prefers an exact file name', () => {
    expect(languageFor('dockerfile', '', languages)).toBe('dockerfile')
  })

  it('falls back to the first line, then to plain text', () => {
    expect(languageFor('run', '#!/usr/bin/env python3', languages)).toBe('python')
    expect(languageFor('run', '#!/bin/bash', languages)).toBe('shell')
    expect(languageFor('notes', 'hello', languages)).toBe('plaintext')
  })

  it('takes hostile names as names', () => {
    expect(languageFor('<script>.js', '', languages)).toBe('javascript')
    expect(languageFor('a\nb.py', '', languages)).toBe('python')
    expect(languageFor('-dash', '', languages)).toBe('plaintext')
  })
})
