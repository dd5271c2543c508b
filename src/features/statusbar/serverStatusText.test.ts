import { describe, expect, it } from 'vitest'
import type { ServerState } from '../../sandbox/language/LanguageClient'
import { serverStatusText } from './serverStatusText'

const server = (state: ServerState, name = 'Pyright') => ({ key: 'python', name, state })

describe('serverStatusText', () => {
  it('says nothing of a server that runs or is stopped', () => {
    expect(serverStatusText(server({ kind: 'running' }), undefined, 0)).toBeUndefined()
    expect(serverStatusText(server({ kind: 'stopped' }), undefined, 0)).toBeUndefined()
  })

  it('says a server is starting, also while its first start waits for the sandbox', () => {
    expect(serverStatusText(server({ kind: 'starting' }), undefined, 0)?.text).toBe('Pyright: starting…')
    const waiting = serverStatusText(
      server({ kind: 'restarting', attempt: 0, inMs: 0, reason: 'waiting for the sandbox' }),
      undefined,
      0,
    )
    expect(waiting).toEqual({
      text: 'Pyright: starting…',
      title: 'waiting for the sandbox',
      action: undefined,
    })
  })

  it('counts a restart down in whole seconds, with the reason in the tooltip', () => {
    const restarting = server(
      { kind: 'restarting', attempt: 3, inMs: 4000, reason: 'it did not start: exit 1' },
      'TypeScript',
    )
    expect(serverStatusText(restarting, undefined, 3200)).toEqual({
      text: 'TypeScript: restarting in 4 s',
      title: 'TypeScript is restarting (it did not start: exit 1)',
      action: undefined,
    })
    expect(serverStatusText(restarting, undefined, 0)?.text).toBe('TypeScript: restarting…')
  })

  it('offers to install a missing server, telling why and what the install runs', () => {
    const missing = server({
      kind: 'missing',
      reason: 'Pyright is not installed in this sandbox (pyright-langserver: command not found)',
      install: 'npm install -g pyright',
    })
    expect(serverStatusText(missing, undefined, 0)).toEqual({
      text: 'Pyright missing',
      title:
        'Pyright is not installed in this sandbox (pyright-langserver: command not found)\nInstall runs: npm install -g pyright',
      action: 'install',
    })
    expect(
      serverStatusText({ ...missing, state: { kind: 'missing', reason: 'no' } }, undefined, 0)?.action,
    ).toBe(undefined)
  })

  it('shows an install while it runs, and its error when it failed, with the button to try again', () => {
    const missing = server({ kind: 'missing', reason: 'not installed', install: 'npm install -g pyright' })
    expect(serverStatusText(missing, { kind: 'installing' }, 0)).toEqual({
      text: 'Installing Pyright…',
      title: 'npm install -g pyright',
      action: undefined,
    })
    expect(serverStatusText(missing, { kind: 'failed', error: 'npm ERR! 404' }, 0)).toEqual({
      text: 'Pyright: install failed',
      title: 'Installing failed: npm ERR! 404\nnot installed\nInstall runs: npm install -g pyright',
      action: 'install',
    })
  })

  it('offers to retry a failed server', () => {
    expect(
      serverStatusText(server({ kind: 'failed', reason: 'Pyright stopped 5 times: exit 1' }), undefined, 0),
    ).toEqual({ text: 'Pyright failed', title: 'Pyright stopped 5 times: exit 1', action: 'retry' })
  })
})
