import { describe, expect, it } from 'vitest'
import { parseEmbedOptions } from './embedOptions'

describe('parseEmbedOptions', () => {
  it('shows every panel, editable, by default', () => {
    expect(parseEmbedOptions('')).toEqual({
      panels: ['files', 'editor', 'terminal'],
      readOnly: false,
      codeIntelligence: true,
    })
  })

  it('reads panels in the layout order, a file, a command, a theme and read-only', () => {
    const options = parseEmbedOptions(
      '?panels=terminal,editor&open=src/app.py&run=npm%20test&theme=dark&readonly=1',
    )
    expect(options).toEqual({
      panels: ['editor', 'terminal'],
      open: 'src/app.py',
      run: 'npm test',
      theme: 'dark',
      readOnly: true,
      codeIntelligence: true,
    })
  })

  it('turns code intelligence off for a terminal-only embed, and on or off when asked', () => {
    expect(parseEmbedOptions('?panels=terminal')).toMatchObject({ codeIntelligence: false })
    expect(parseEmbedOptions('?panels=terminal&intelligence=1')).toMatchObject({ codeIntelligence: true })
    expect(parseEmbedOptions('?intelligence=0')).toMatchObject({ codeIntelligence: false })
    expect(parseEmbedOptions('?intelligence=maybe')).toEqual({
      error: "intelligence= takes 1 or 0, not 'maybe'",
    })
  })

  it('refuses what it does not know, with the reason', () => {
    expect(parseEmbedOptions('?panels=files,debugger')).toEqual({
      error: "unknown panel 'debugger' in panels= (use files, editor, terminal, preview)",
    })
    expect(parseEmbedOptions('?panels=')).toEqual({ error: 'panels= names no panel' })
    expect(parseEmbedOptions('?theme=pink')).toMatchObject({ error: expect.stringContaining("'pink'") })
    expect(parseEmbedOptions('?readonly=yes')).toMatchObject({ error: expect.stringContaining('readonly=') })
  })

  it('reads a port to preview, and shows the preview panel for it', () => {
    expect(parseEmbedOptions('?panels=terminal&preview=8000')).toEqual({
      panels: ['terminal', 'preview'],
      preview: { port: 8000, path: '/' },
      readOnly: false,
      codeIntelligence: false,
    })
    expect(parseEmbedOptions('?preview=5173/docs/intro?x')).toMatchObject({
      preview: { port: 5173, path: '/docs/intro?x' },
    })
    for (const bad of ['0', '70000', 'abc', '8000docs', ''])
      expect(parseEmbedOptions(`?preview=${bad}`), bad).toMatchObject({
        error: expect.stringContaining('preview='),
      })
  })
})
