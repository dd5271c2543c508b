import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveLink, saveLinkSeconds } from './files'

describe('saveLink', () => {
  afterEach(() => vi.useRealTimers())
  const ours = {
    runtimeUrl: 'http://49983-abc.localhost:8787',
    accessToken: 'secret-token',
    extensions: true,
  }

  it('signs the path as envd checks it (the vector from the runtime’s own signing), valid for a few minutes, and asks for an attachment', async () => {
    vi.useFakeTimers({ now: (1_700_000_300 - saveLinkSeconds) * 1000 })
    const url = new URL((await saveLink(ours, '/home/user/a b.txt')) ?? '')
    expect(url.origin + url.pathname).toBe('http://49983-abc.localhost:8787/files')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      path: '/home/user/a b.txt',
      download: '1',
      signature: 'v1_nT8cOf+xs7fMOQ39WDeaPrbridN9u0NU76Rh+NiTLn0',
      signature_expiration: '1700000300',
    })
    // The token itself is never in the link.
    expect(url.href).not.toContain('secret-token')
  })

  it('needs no signature where the runtime has no token, and makes no link for a runtime that may be envd', async () => {
    expect(await saveLink({ ...ours, accessToken: null }, '/tmp/x')).toBe(
      'http://49983-abc.localhost:8787/files?path=%2Ftmp%2Fx&download=1',
    )
    expect(await saveLink({ ...ours, extensions: false }, '/tmp/x')).toBeUndefined()
  })
})
