// The domain layer owns the connection guard, the error mapping and the RPC details: features
// see SandboxErrors with the server's words, `find` and `signal` answer "not there" plainly.
import { Code, ConnectError } from '@connectrpc/connect'
import { describe, expect, it } from 'vitest'
import { FilesError } from '../api/files'
import type { RuntimeClients } from './runtimeClients'
import { isNotFound, SandboxError, sandboxError } from './sandboxError'
import { FileType, fileEntry, sandboxFiles } from './sandboxFiles'
import { pidSelector, sandboxProcesses } from './sandboxProcesses'

/** Clients that answer only what a test gives them (a cast: the rest is never called). */
const clients = (fake: { filesystem?: object; process?: object }) => fake as unknown as RuntimeClients

describe('sandboxError', () => {
  it('maps Connect codes and /files statuses to a few kinds, keeping the server’s words', () => {
    expect(sandboxError(new ConnectError('path not found: /x', Code.NotFound))).toMatchObject({
      kind: 'not-found',
      message: 'path not found: /x',
    })
    expect(sandboxError(new ConnectError('exists', Code.AlreadyExists)).kind).toBe('already-exists')
    expect(sandboxError(new ConnectError('bad', Code.InvalidArgument)).kind).toBe('invalid')
    expect(sandboxError(new ConnectError('who', Code.Unauthenticated)).kind).toBe('denied')
    expect(sandboxError(new ConnectError('paused', Code.Unavailable)).kind).toBe('unavailable')
    expect(sandboxError(new ConnectError('boom', Code.Internal)).kind).toBe('failed')
    expect(sandboxError(new FilesError(404, 'file not found')).kind).toBe('not-found')
    expect(sandboxError(new FilesError(502, 'The sandbox is paused')).kind).toBe('unavailable')
    expect(sandboxError(new FilesError(507, 'not enough disk space available')).kind).toBe('no-space')
    expect(sandboxError(new FilesError(500, 'error writing file')).kind).toBe('failed')
    expect(isNotFound(new FilesError(404, 'x'))).toBe(true)
    expect(isNotFound(new Error('not found'))).toBe(false)
  })

  it('says a full disk in the IDE’s words, with the free space where the runtime tells it', () => {
    const said = (message: string) => sandboxError(new FilesError(507, message))
    expect(said('not enough disk space available (413696 bytes free)')).toMatchObject({
      kind: 'no-space',
      message: 'No space left in the sandbox (0.4 MB free)',
    })
    expect(said('not enough disk space available (0 bytes free)').message).toBe(
      'No space left in the sandbox (0 MB free)',
    )
    expect(said(`not enough disk space available (${3 * 1024 * 1024 + 1} bytes free)`).message).toBe(
      'No space left in the sandbox (3 MB free)',
    )
    expect(said(`not enough disk space available (${812 * 1024 * 1024 + 400_000} bytes free)`).message).toBe(
      'No space left in the sandbox (812 MB free)',
    )
    // envd's own words (E2B) tell no figure; a quota has none to tell.
    expect(said('not enough disk space available').message).toBe('No space left in the sandbox')
    expect(said('not enough disk space available (over the disk quota)').message).toBe(
      'No space left in the sandbox (over its disk quota)',
    )
    expect(said('not enough inodes available (1048576 bytes free)').message).toBe(
      'No space left in the sandbox: too many files (1 MB free)',
    )
    expect(said('not enough inodes available').message).toBe('No space left in the sandbox: too many files')
  })
})

describe('sandboxFiles', () => {
  it('says "the sandbox is not connected" for any call made before it knows its runtime', async () => {
    const files = sandboxFiles({ clients: undefined, endpoint: undefined })
    for (const call of [
      () => files.stat('/a'),
      () => files.list('/'),
      () => files.read('/a'),
      () => files.remove('/a'),
    ])
      await expect(call()).rejects.toMatchObject({
        kind: 'not-connected',
        message: 'the sandbox is not connected',
      })
  })

  it('finds an entry, or undefined when there is none, and passes other failures on', async () => {
    const entry = fileEntry({ name: 'a', path: '/home/user/a', type: FileType.FILE })
    const filesystem = {
      stat: async ({ path }: { path: string }) => {
        if (path === '/home/user/a') return { entry }
        if (path === '/denied') throw new ConnectError('permission denied', Code.PermissionDenied)
        throw new ConnectError(`path not found: ${path}`, Code.NotFound)
      },
    }
    const files = sandboxFiles({ clients: clients({ filesystem }), endpoint: undefined })
    expect(await files.find('/home/user/a')).toBe(entry)
    expect(await files.find('/nope')).toBeUndefined()
    await expect(files.stat('/nope')).rejects.toBeInstanceOf(SandboxError)
    await expect(files.find('/denied')).rejects.toMatchObject({
      kind: 'denied',
      message: 'permission denied',
    })
  })
})

describe('sandboxProcesses', () => {
  it('signals a pid alone, and answers false for a process that is gone', async () => {
    const sent: unknown[] = []
    const process = {
      sendSignal: async (req: { process: unknown; signal: number }) => {
        sent.push(req)
        if ((req.process as { selector: { value: number } }).selector.value === 9)
          throw new ConnectError('process with pid 9 not found', Code.NotFound)
        return {}
      },
    }
    const processes = sandboxProcesses({ clients: clients({ process }) })
    expect(await processes.signal(7, 'SIGTERM')).toBe(true)
    expect(await processes.signal(9, 'SIGKILL')).toBe(false)
    expect(sent[0]).toMatchObject({ process: pidSelector(7), signal: 15 })
    expect(sent[1]).toMatchObject({ process: pidSelector(9), signal: 9 })
  })
})
