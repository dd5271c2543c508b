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
      codeIntelligence: false,
      languages: { enabled: true, servers: { python: { command: 'pylsp' } } },
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
      codeIntelligence: true,
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

  it('reads how a lab is graded, filling in hidden files, time, points and feedback', () => {
    const grade = {
      hidden: ['grader/**'],
      command: 'python3 -B -m unittest discover -s grader -v',
      timeoutSeconds: 60,
      report: 'report.xml',
      points: { test_negative: 2 },
      feedback: 'messages',
    }
    expect(parse({ title: 'Graded', grade }).grade).toEqual(grade)
    expect(parse({ title: 'Graded', grade: { command: 'make test' } }).grade).toEqual({
      hidden: [],
      command: 'make test',
      timeoutSeconds: 60,
      points: {},
      feedback: 'names',
    })
    expect(parse({ title: 'Ungraded' }).grade).toBeUndefined()
  })

  it('names each problem of a grade, and refuses a key it does not know there too', () => {
    const message = problem({
      title: 'x',
      grade: { command: '', timeoutSeconds: 0, hidden: ['../secret'], points: { a: -1 }, feedback: 'all' },
    })
    for (const where of [
      'grade.command',
      'grade.timeoutSeconds',
      'grade.hidden[0]',
      'grade.points.a',
      'grade.feedback',
    ])
      expect(message).toContain(`at ${where}`)
    expect(problem({ title: 'x', grade: { command: 'true', hiden: ['grader/**'] } })).toContain('hiden')
    expect(problem({ title: 'x', grade: { command: 'true', report: '/tmp/report.xml' } })).toContain(
      'at grade.report',
    )
  })

  it('refuses paths that leave the home folder', () => {
    for (const path of ['/etc/passwd', '../other/file', 'a/../../b', 'bad\nname']) {
      expect(problem({ title: 'x', open: [path] })).toContain('must be relative to the home folder')
    }
    expect(problem({ title: 'x', readOnly: ['../**'] })).toContain('at readOnly[0]')
    expect(problem({ title: 'x', instructions: '/tmp/x.md' })).toContain('at instructions')
  })

  it('turns code intelligence off for an exam, and takes language servers as a languages file does', () => {
    expect(parse({ title: 'Exam', codeIntelligence: false }).codeIntelligence).toBe(false)
    const c = {
      name: 'clangd',
      languages: ['c', 'cpp'],
      command: 'clangd',
      install: 'apt-get install -y clangd',
    }
    expect(parse({ title: 'C', languages: { servers: { c, typescript: false } } }).languages).toEqual({
      enabled: true,
      servers: { c, typescript: false },
    })
    expect(parse({ title: 'Quiet', languages: { enabled: false } }).languages).toEqual({
      enabled: false,
      servers: {},
    })
    expect(parse({ title: 'Plain' }).languages).toBeUndefined()
  })

  it('names each problem of its languages as the languages file would, and a wrong switch', () => {
    const message = problem({
      title: 'x',
      codeIntelligence: 'no',
      languages: { servers: { c: { command: 'clangd' }, python: { comand: 'pylsp' } }, extra: 1 },
    })
    expect(message).toContain('at codeIntelligence')
    expect(message).toContain('languages: unknown key "extra"')
    expect(message).toContain('languages: servers.c: a new server needs "languages" and "command"')
    expect(message).toContain('languages: servers.python: unknown key "comand"')
    expect(message).toContain('at languages')
    expect(problem({ title: 'x', languages: ['python'] })).toContain('languages: must be an object')
    expect(problem({ title: 'x', codeintelligence: false })).toContain('codeintelligence')
  })
})
