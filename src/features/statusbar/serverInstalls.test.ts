import { describe, expect, it } from 'vitest'
import type { Notice } from '../../ui/notifications'
import { ServerInstalls } from './serverInstalls'

function setup(install: (key: string) => Promise<void>) {
  const notices: { kind: Notice['kind']; text: string }[] = []
  const installs = new ServerInstalls({ install }, { push: (kind, text) => notices.push({ kind, text }) })
  return { installs, notices }
}

describe('ServerInstalls', () => {
  it('shows an install while it runs and forgets it once it succeeded', async () => {
    let finish = () => {}
    const { installs, notices } = setup(() => new Promise<void>((resolve) => (finish = resolve)))
    const done = installs.install('python', 'Pyright')
    expect(installs.getSnapshot().get('python')).toEqual({ kind: 'installing' })
    finish()
    await done
    expect(installs.getSnapshot().has('python')).toBe(false)
    expect(notices).toEqual([])
  })

  it('keeps a failed install’s error and shows it with the command’s own words', async () => {
    const { installs, notices } = setup(() =>
      Promise.reject(new Error('npm install -g pyright failed (exit 1): npm ERR! 404')),
    )
    await installs.install('python', 'Pyright')
    expect(installs.getSnapshot().get('python')).toEqual({
      kind: 'failed',
      error: 'npm install -g pyright failed (exit 1): npm ERR! 404',
    })
    expect(notices).toEqual([
      {
        kind: 'error',
        text: 'Installing Pyright failed: npm install -g pyright failed (exit 1): npm ERR! 404',
      },
    ])
  })

  it('runs one install of a server at a time', async () => {
    let calls = 0
    let finish = () => {}
    const { installs } = setup(() => {
      calls++
      return new Promise<void>((resolve) => (finish = resolve))
    })
    const first = installs.install('python', 'Pyright')
    void installs.install('python', 'Pyright')
    finish()
    await first
    expect(calls).toBe(1)
  })
})
