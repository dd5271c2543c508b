// The lab against fakes of the domain layer: what it reads, what it runs in the sandbox, what it
// shows, and what it refuses.
import { describe, expect, it, vi } from 'vitest'
import type { WatchNotice } from '../../sandbox/fileWatch'
import type { LabSubmissions } from '../../sandbox/labSubmissions'
import type { SessionSnapshot } from '../../sandbox/SandboxSession'
import { SandboxError } from '../../sandbox/sandboxError'
import { fileEntry, type SandboxFiles } from '../../sandbox/sandboxFiles'
import type { CommandResult, RunOptions, SandboxProcesses } from '../../sandbox/sandboxProcesses'
import { LabController, type LabSession } from './LabController'

const home = '/home/user'
const manifest = {
  title: 'Averages',
  instructions: '.lab/instructions.md',
  open: ['main.py'],
  readOnly: ['tests/**', '.lab/**'],
  check: { command: 'python3 -m unittest', timeoutSeconds: 30 },
}

const result = (exitCode: number, stderr = ''): CommandResult => ({
  exitCode,
  status: `exit status ${exitCode}`,
  timedOut: false,
  stdout: '',
  stderr,
  output: stderr,
})

/** A running sandbox holding `files` (path → text), that records the commands it is asked to run. */
function fakeSession(files: Record<string, string>, exitCode = 0) {
  const encoder = new TextEncoder()
  const runs: { cmd: string; options: RunOptions | undefined }[] = []
  const notFound = (path: string) => new SandboxError('not-found', `path not found: ${path}`)
  const sandboxFiles = {
    home: async () => home,
    read: async (path: string) => {
      const text = files[path]
      if (text === undefined) throw notFound(path)
      return encoder.encode(text)
    },
    stat: async (path: string) => {
      if (!Object.keys(files).some((p) => p === path || p.startsWith(`${path}/`))) throw notFound(path)
      return fileEntry({ path })
    },
  } as Pick<SandboxFiles, 'home' | 'read' | 'stat'> as SandboxFiles
  const processes = {
    run: async (cmd: string, options?: RunOptions) => {
      runs.push({ cmd, options })
      return result(exitCode, exitCode === 0 ? '' : 'FAILED (failures=1)')
    },
  } as Pick<SandboxProcesses, 'run'> as SandboxProcesses
  const snapshot = { state: { kind: 'running' } } as SessionSnapshot
  const session: LabSession = {
    files: sandboxFiles,
    processes,
    getSnapshot: () => snapshot,
    subscribe: () => () => {},
  }
  return { session, runs }
}

const noWatch = { subscribe: () => () => {} }

async function loaded(session: LabSession) {
  const lab = new LabController(session, noWatch)
  // The first manifest read loads its parser (zod): over a second on a busy machine.
  await vi.waitFor(() => expect(lab.getSnapshot().home).toBe(home), { timeout: 10_000 })
  return lab
}

describe('LabController', () => {
  it('shows no lab in a sandbox without .lab/lab.json', async () => {
    const lab = await loaded(fakeSession({}).session)
    expect(lab.getSnapshot().lab).toEqual({ kind: 'none' })
    expect(lab.canCheck).toBe(false)
  })

  it('reads the manifest and its instructions, and protects the read-only paths', async () => {
    const { session } = fakeSession({
      [`${home}/.lab/lab.json`]: JSON.stringify(manifest),
      [`${home}/.lab/instructions.md`]: '# Averages',
    })
    const lab = await loaded(session)
    const state = lab.getSnapshot().lab
    expect(state.kind).toBe('ready')
    expect(state.kind === 'ready' && state.instructions).toEqual({
      kind: 'text',
      text: '# Averages',
      path: '.lab/instructions.md',
    })
    expect(lab.readOnlyReason(`${home}/tests/test_main.py`)).toContain(
      'tests/test_main.py is part of the lab',
    )
    expect(lab.readOnlyReason(`${home}/main.py`)).toBeUndefined()
  })

  it('says what is wrong with a broken manifest', async () => {
    const { session } = fakeSession({ [`${home}/.lab/lab.json`]: '{"title": 3}' })
    const lab = await loaded(session)
    expect(lab.getSnapshot().lab.kind).toBe('invalid')
  })

  it('runs the check in the home folder with a login shell, and passes only on exit status 0', async () => {
    for (const [exitCode, passed] of [
      [0, true],
      [1, false],
    ] as const) {
      const { session, runs } = fakeSession({ [`${home}/.lab/lab.json`]: JSON.stringify(manifest) }, exitCode)
      const lab = await loaded(session)
      await lab.check()
      expect(runs[0]).toMatchObject({
        cmd: '/bin/bash',
        options: {
          args: ['-l', '-c', 'python3 -m unittest'],
          cwd: home,
          timeoutMs: 30_000,
          tag: 'lab-check',
        },
      })
      const check = lab.getSnapshot().check
      expect(check.kind === 'done' && check.passed).toBe(passed)
    }
  })

  it('resets only after the user agrees, from .lab/start, and says when there is nothing to reset from', async () => {
    const withStart = fakeSession({
      [`${home}/.lab/lab.json`]: JSON.stringify(manifest),
      [`${home}/.lab/start/main.py`]: 'print()',
    })
    const lab = await loaded(withStart.session)
    lab.requestReset()
    await lab.answerReset(false)
    expect(withStart.runs).toEqual([])
    lab.requestReset()
    await lab.answerReset(true)
    expect(withStart.runs[0]).toMatchObject({
      cmd: 'cp',
      options: { args: ['-R', '--parents', '--', '.', home], cwd: `${home}/.lab/start`, tag: 'lab-reset' },
    })
    expect(lab.getSnapshot().reset).toEqual({ kind: 'done' })

    const withoutStart = fakeSession({ [`${home}/.lab/lab.json`]: JSON.stringify(manifest) })
    const bare = await loaded(withoutStart.session)
    bare.requestReset()
    await bare.answerReset(true)
    expect(bare.getSnapshot().reset).toEqual({
      kind: 'error',
      message: 'this lab has no starting files to reset from (.lab/start is missing)',
    })
    expect(withoutStart.runs).toEqual([])
  })

  it('gives a lab with `grade` its Submit where the stack grades, and takes it away with the `grade`', async () => {
    const graded = { ...manifest, grade: { command: 'python3 grader/run.py', hidden: ['grader/**'] } }
    const files = { [`${home}/.lab/lab.json`]: JSON.stringify(graded) }
    const { session } = fakeSession(files)
    const submissions: LabSubmissions = { list: async () => [], submit: vi.fn(), due: vi.fn() }
    const unsaved = { unsavedPaths: () => [], saveAll: async () => {} }
    let notify: (notice: WatchNotice) => void = () => {}
    const watch = {
      subscribe: (listener: (notice: WatchNotice) => void) => {
        notify = listener
        return () => {}
      },
    }
    const lab = new LabController(session, watch, { submissions, unsaved })
    await vi.waitFor(() => expect(lab.getSnapshot().grading).toBeDefined(), { timeout: 10_000 })
    const grading = lab.getSnapshot().grading
    await vi.waitFor(() => expect(grading?.getSnapshot().history).toEqual({ kind: 'ready', submissions: [] }))

    files[`${home}/.lab/lab.json`] = JSON.stringify(manifest)
    notify({ kind: 'resync' })
    await vi.waitFor(() => expect(lab.getSnapshot().grading).toBeUndefined())

    // Where nothing grades (an E2B remote's sandbox), a graded lab has no Submit.
    const elsewhere = await loaded(fakeSession({ [`${home}/.lab/lab.json`]: JSON.stringify(graded) }).session)
    expect(elsewhere.getSnapshot().lab.kind).toBe('ready')
    expect(elsewhere.getSnapshot().grading).toBeUndefined()
  })
})
