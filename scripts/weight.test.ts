// Weight budgets of the built IDE (issue 22), checked on the build `npm test` makes first: what
// each page must download before it is usable, as gzip bytes the server sends.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pages, readBuild } from './weight'

const kB = 1024
const build = readBuild(join(import.meta.dirname, '..', 'dist', 'ide'))

describe('the built IDE stays light', () => {
  it('sends at most 250 kB gzipped before any page renders (the entry script and its imports)', () => {
    expect(build.gzipBytes(pages.entry) / kB).toBeLessThanOrEqual(250)
  })

  it('sends at most 275 kB gzipped for the workbench with its explorer and editor panels, Monaco not included', () => {
    expect(build.gzipBytes(pages.workbench) / kB).toBeLessThanOrEqual(275)
    expect(build.modules(pages.workbench).filter((m) => m.includes('/monaco-editor/'))).toEqual([])
  })

  it('loads neither Monaco nor the explorer for a terminal-only embed', () => {
    const modules = build.modules(pages.terminalEmbed)
    expect(modules.some((m) => m.endsWith('/@xterm/xterm/lib/xterm.mjs'))).toBe(true)
    expect(
      modules.filter((m) => /\/monaco-editor\/|\/src\/features\/files\/|\/@tanstack\/virtual/.test(m)),
    ).toEqual([])
  })
})
