import { afterEach, describe, expect, it, vi } from 'vitest'
import { SandboxSession } from './SandboxSession'

/** A session whose page was opened at `hostname`. */
function sessionAt(hostname: string, source: 'local' | 'e2b' = 'local'): SandboxSession {
  vi.stubGlobal('location', { hostname })
  return source === 'local'
    ? new SandboxSession({ source, sandboxId: 'sbx' })
    : new SandboxSession({ source, remoteId: 'r1', sandboxId: 'sbx' })
}

describe('SandboxSession.onThisMachine', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('is true for the local stack opened from a loopback address', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) expect(sessionAt(host).onThisMachine).toBe(true)
  })

  it('is false for the local stack opened across a network, and for E2B', () => {
    expect(sessionAt('192.168.1.20').onThisMachine).toBe(false)
    expect(sessionAt('ide.example.org').onThisMachine).toBe(false)
    expect(sessionAt('127.0.0.1', 'e2b').onThisMachine).toBe(false)
  })
})
