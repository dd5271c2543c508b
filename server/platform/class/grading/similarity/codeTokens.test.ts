import { describe, expect, it } from 'vitest'
import { codeTokens } from './codeTokens'

const texts = (code: string) => codeTokens(code).map((t) => t.text)

describe('codeTokens', () => {
  it('makes every name one class, keeps keywords, and drops layout and comments', () => {
    expect(texts('def total(numbers):  # the sum\n    return sum(numbers)\n')).toEqual([
      'def',
      'I',
      '(',
      'I',
      ')',
      ':',
      'return',
      'I',
      '(',
      'I',
      ')',
    ])
    expect(texts('for (int i = 0; i < n; i++) { /* count\n up */ s += a[i]; } // done')).toEqual(
      'for ( int I = N ; I < I ; I + + ) { I + = I [ I ] ; }'.split(' '),
    )
  })

  it('makes every literal one class: strings of any quote, docstrings, numbers of any form', () => {
    expect(texts(`x = "a # not a comment" + 'b' + \`c\${d}\``)).toEqual(['I', '=', 'S', '+', 'S', '+', 'S'])
    expect(texts('"""A docstring\nover lines"""\nx = 0x1F + 1e-3 + 10_000 + .5 + 2.5f')).toEqual([
      'S',
      'I',
      '=',
      'N',
      '+',
      'N',
      '+',
      'N',
      '+',
      'N',
      '+',
      'N',
    ])
    expect(texts("c = '\\'';")).toEqual(['I', '=', 'S', ';'])
  })

  it('renamed names and reflowed lines give the same tokens', () => {
    const a = 'def mean(xs):\n    return sum(xs) / len(xs)\n'
    const b = 'def average( values ) :\n  return sum(values)/len(\n    values)'
    expect(texts(b)).toEqual(texts(a))
  })

  it('says the line each token starts on, past multi-line comments and strings', () => {
    const tokens = codeTokens('a\n/* one\ntwo */ b\n"""x\ny"""\nc')
    expect(tokens.map((t) => [t.text, t.line])).toEqual([
      ['I', 1],
      ['I', 3],
      ['S', 4],
      ['I', 6],
    ])
  })

  it('takes anything without failing: unclosed strings and comments, other scripts, nothing', () => {
    expect(texts('')).toEqual([])
    expect(texts('x = "unclosed\ny = 1')).toEqual(['I', '=', 'S', 'I', '=', 'N'])
    expect(texts('/* never closed')).toEqual([])
    expect(texts('π = 3.14; 名前 = π')).toEqual(['I', '=', 'N', ';', 'I', '=', 'I'])
  })

  it('stops at maxTokens', () => {
    expect(codeTokens('a b c d e f', 3)).toHaveLength(3)
  })
})
