import { describe, expect, it, vi } from 'vitest'
import { retryImport } from './retryImport'

function failingTimes(failures: number) {
  let calls = 0
  const load = vi.fn(async () => {
    calls++
    if (calls <= failures) throw new TypeError(`Failed to fetch dynamically imported module (${calls})`)
    return { ready: true }
  })
  return load
}

describe('retryImport', () => {
  it('returns the module at once when the first fetch works', async () => {
    const sleep = vi.fn(async () => {})
    await expect(retryImport(failingTimes(0), { sleep })).resolves.toEqual({ ready: true })
    expect(sleep).not.toHaveBeenCalled()
  })

  it('tries again after 1 s, 2 s, 4 s … capped, until the fetch works', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const waits: number[] = []
    const load = failingTimes(6)
    const module = await retryImport(load, { sleep: async (ms) => void waits.push(ms), maxWaitMs: 10_000 })
    expect(module).toEqual({ ready: true })
    expect(load).toHaveBeenCalledTimes(7)
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
  })

  it('gives up after the last attempt with its error', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const load = failingTimes(Number.POSITIVE_INFINITY)
    await expect(retryImport(load, { attempts: 3, sleep: async () => {} })).rejects.toThrow('(3)')
    expect(load).toHaveBeenCalledTimes(3)
  })
})
