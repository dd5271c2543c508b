import { describe, expect, it } from 'vitest'
import { labLink } from './labLinks'

describe('links in lab instructions', () => {
  it('reads relative links from the instructions’ folder', () => {
    expect(labLink('../main.py', '.lab/instructions.md')).toEqual({ kind: 'file', path: 'main.py' })
    expect(labLink('hint.md', '.lab/instructions.md')).toEqual({ kind: 'file', path: '.lab/hint.md' })
    expect(labLink('src/a%20b.py#L3', 'instructions.md')).toEqual({ kind: 'file', path: 'src/a b.py' })
    expect(labLink('/tests/test_main.py', '.lab/instructions.md')).toEqual({
      kind: 'file',
      path: 'tests/test_main.py',
    })
  })

  it('keeps web links and drops every other scheme', () => {
    expect(labLink('https://docs.python.org/3/', 'i.md')).toEqual({
      kind: 'web',
      href: 'https://docs.python.org/3/',
    })
    expect(labLink('mailto:teacher@example.org', 'i.md').kind).toBe('web')
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      '//evil.example',
      '#top',
      '',
      undefined,
    ]) {
      expect(labLink(href, 'i.md')).toEqual({ kind: 'none' })
    }
  })

  it('never leads out of the home folder', () => {
    expect(labLink('../../etc/passwd', '.lab/instructions.md')).toEqual({ kind: 'none' })
    expect(labLink('..', 'instructions.md')).toEqual({ kind: 'none' })
  })
})
