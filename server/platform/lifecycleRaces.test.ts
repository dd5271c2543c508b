// Calls on one sandbox that cross in flight: whatever is queued behind a kill finds the sandbox
// gone (E2B's 404), never brings it back nor fails with a 500. The timeout's own kill or pause is
// such a call, so a client's pause or resume may meet it at any moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'

describe('lifecycle calls that cross', () => {
  let tp: TestPlatform
  beforeAll(async () => {
    tp = await startTestPlatform()
  })
  afterAll(() => tp?.close())

  const create = async (): Promise<string> => {
    const res = await tp.api('POST', '/v2/sandboxes', { templateID: 'base' })
    expect(res.status).toBe(201)
    return ((await res.json()) as { sandboxID: string }).sandboxID
  }

  it('a pause, resume or second kill queued behind a kill finds the sandbox gone, and it stays gone', async () => {
    const { manager } = tp.platform
    for (const later of ['pause', 'connect', 'kill'] as const) {
      const id = await create()
      // Both queued at once, the kill first: the second call waits behind it.
      const killed = manager.kill(id)
      const next = later === 'connect' ? manager.connect(id, 60) : manager[later](id)
      await killed
      await expect(next, later).rejects.toMatchObject({ status: 404 })
      expect((await tp.api('GET', `/sandboxes/${id}`)).status, later).toBe(404)
      expect(
        manager.list().some((r) => r.sandboxID === id),
        later,
      ).toBe(false)
    }
  }, 60_000)

  it('a timeout that ends a sandbox while a client pauses it leaves one answer of E2B’s kinds', async () => {
    const id = await create()
    await tp.api('POST', `/sandboxes/${id}/timeout`, { timeout: 0 })
    // The ticker kills it within a second; keep asking to pause across that moment.
    const statuses = new Set<number>()
    for (let i = 0; i < 40; i++) {
      statuses.add((await tp.api('POST', `/sandboxes/${id}/pause`)).status)
      await new Promise((r) => setTimeout(r, 25))
    }
    for (const status of statuses) expect([204, 404, 409]).toContain(status)
  }, 30_000)
})
