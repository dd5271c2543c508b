import { describe, expect, it } from 'vitest'
import { LabManifestError, parseLabManifest } from './labManifest'

const parse = (value: unknown) => parseLabManifest(JSON.stringify(value))
const problem = (value: unknown) => {
  try {
    parse(value)
  } catch (err) {
    if (err instanceof LabManifestError) return err.message
    throw err
  }
  throw new Error('the manifest was accepted')
}

describe('lab manifest', () => {
  it('reads a full manifest', () => {
    const full = {
      title: 'Python basics',
      instructions: '.lab/instructions.md',
      open: ['main.py'],
      readOnly: ['tests/**', '.lab/**'],
      check: { command: 'python3 -m unittest', timeoutSeconds: 30 },
      reset: { paths: ['main.py'] },
    }
    expect(parse(full)).toEqual(full)
  })

  it('fills in what a small manifest leaves out', () => {
    expect(parse({ title: 'Tiny', check: { command: 'true' } })).toEqual({
      title: 'Tiny',
      open: [],
      readOnly: [],
      check: { command: 'true', timeoutSeconds: 60 },
      reset: {},
    })
    expect(parse({ title: 'No reset', reset: false }).reset).toBe(false)
  })

  it('says when the file is not JSON', () => {
    expect(() => parseLabManifest('{"title": ')).toThrow(/\.lab\/lab\.json is not valid JSON/)
  })

  it('names each problem and where it is', () => {
    const message = problem({ title: '', open: 'main.py', check: { command: 'x', timeoutSeconds: 0 } })
    expect(message).toContain('.lab/lab.json is not a valid lab')
    expect(message).toContain('at title')
    expect(message).toContain('at open')
    expect(message).toContain('at check.timeoutSeconds')
  })

  it('refuses keys it does not know, so a typo is not silently ignored', () => {
    expect(problem({ title: 'x', readonly: ['tests/**'] })).toContain('readonly')
  })

  it('refuses paths that leave the home folder', () => {
    for (const path of ['/etc/passwd', '../other/file', 'a/../../b', 'bad\nname']) {
      expect(problem({ title: 'x', open: [path] })).toContain('must be relative to the home folder')
    }
    expect(problem({ title: 'x', readOnly: ['../**'] })).toContain('at readOnly[0]')
    expect(problem({ title: 'x', instructions: '/tmp/x.md' })).toContain('at instructions')
  })
})
