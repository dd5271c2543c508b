// sudo's command line in a sandbox: the options its passwordless root needs, what the command
// gets as arguments and environment, and clear refusals for the rest.
import { describe, expect, it } from 'vitest'
import { parseSudo, securePath, sudoArgv, sudoEnvironment } from './sudoOptions'

const run = (argv: string[]) => {
  const parsed = parseSudo(argv)
  if (!('run' in parsed)) throw new Error(`not a command: ${parsed.print}`)
  return parsed.run
}

describe('sudo in a sandbox', () => {
  it('runs a command as root, or as -u / --user, with VAR=value before it', () => {
    expect(run(['-n', 'id', '-u'])).toMatchObject({ user: 'root', command: ['id', '-u'] })
    expect(run(['-u', 'user', 'id'])).toMatchObject({ user: 'user', command: ['id'] })
    expect(run(['-uuser', 'id']).user).toBe('user')
    expect(run(['--user=user', 'id']).user).toBe('user')
    expect(run(['-nE', 'FOO=a=b', 'env'])).toMatchObject({
      preserveEnv: true,
      assignments: { FOO: 'a=b' },
      command: ['env'],
    })
    // After the command, options are the command's own.
    expect(run(['ls', '-u', 'x']).command).toEqual(['ls', '-u', 'x'])
    expect(run(['--', '-weird']).command).toEqual(['-weird'])
  })

  it('gives -i a login shell and -s a shell, the command quoted into it', () => {
    expect(sudoArgv(run(['-i']))).toEqual(['/bin/bash', '-l'])
    expect(sudoArgv(run(['-s', 'echo', 'a b;c']))).toEqual(['/bin/bash', '-c', 'echo a\\ b\\;c'])
    expect(sudoArgv(run(['echo', 'a b']))).toEqual(['echo', 'a b'])
  })

  it('answers -v, -k, -l, -V and -h without running anything, and refuses what it does not know', () => {
    for (const flag of ['-v', '-k', '-K'])
      expect(parseSudo([flag])).toEqual({ print: '', toStderr: false, exitCode: 0 })
    expect(parseSudo(['-l'])).toMatchObject({ print: expect.stringContaining('NOPASSWD: ALL'), exitCode: 0 })
    expect(parseSudo(['-V'])).toMatchObject({ exitCode: 0 })
    expect(parseSudo(['-h'])).toMatchObject({ print: expect.stringContaining('usage: sudo'), exitCode: 0 })
    expect(parseSudo([])).toMatchObject({ toStderr: true, exitCode: 1 })
    expect(parseSudo(['-u'])).toMatchObject({
      print: 'sudo: option requires an argument -- u\n',
      exitCode: 1,
    })
    expect(parseSudo(['-X', 'id'])).toMatchObject({
      print: expect.stringMatching(/^sudo: invalid option -- 'X'/),
    })
    expect(parseSudo(['--bogus'])).toMatchObject({
      print: expect.stringMatching(/^sudo: unrecognized option/),
    })
  })

  it("keeps only the terminal and locale of the caller's environment, or all of it with -E", () => {
    const caller = { TERM: 'xterm', LANG: 'C.UTF-8', LC_ALL: 'C', SECRET: 's', PATH: '/mine', USER: 'user' }
    const ids = { uid: 1000, gid: 1000 }
    const reset = sudoEnvironment(run(['env']), caller, ids)
    expect(reset).toMatchObject({
      TERM: 'xterm',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      PATH: securePath,
      HOME: '/root',
      USER: 'root',
      LOGNAME: 'root',
      SUDO_USER: 'user',
      SUDO_UID: '1000',
      SUDO_COMMAND: 'env',
    })
    expect(reset.SECRET).toBeUndefined()
    const kept = sudoEnvironment(run(['-E', 'env']), caller, ids)
    expect(kept).toMatchObject({ SECRET: 's', PATH: '/mine', HOME: '/root' })
    expect(sudoEnvironment(run(['-u', 'user', 'X=1', 'env']), caller, ids)).toMatchObject({
      HOME: '/home/user',
      USER: 'user',
      X: '1',
    })
  })
})
