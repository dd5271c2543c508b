// GET /sandboxes/{id}/metrics through the official SDK (Sandbox.getMetrics, as `e2b sandbox
// metrics` uses it) and on the wire: real figures from a sandbox that burns CPU, holds memory and
// writes a file; none while paused; E2B's errors for bad times and unknown sandboxes.
import { Sandbox, SandboxNotFoundError } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { pointSdkAt } from '../testing/sdkEnv'

const sampleMs = 250
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('sandbox metrics', () => {
  let tp: TestPlatform
  let sandbox: Sandbox
  let restoreEnv = () => {}

  beforeAll(async () => {
    tp = await startTestPlatform({ metricsEveryMs: sampleMs })
    restoreEnv = pointSdkAt(tp)
    sandbox = await Sandbox.create()
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  it('reports the CPU, memory and disk a sandbox uses, in E2B’s shape', async () => {
    await sandbox.files.write('big.bin', new Uint8Array(8 * 1024 * 1024).fill(7).buffer)
    // One core busy for a second, and 64 MiB held while it is.
    const burn = await sandbox.commands.run(
      `python3 -c "
import time
held = bytearray(64 * 1024 * 1024)
end = time.time() + 1.5
while time.time() < end: pass
time.sleep(2)
"`,
      { background: true },
    )
    await sleep(1200)
    const metrics = await sandbox.getMetrics()
    await burn.kill()
    expect(metrics.length).toBeGreaterThan(2)
    const last = metrics.at(-1)
    expect(last).toEqual({
      timestamp: expect.any(Date),
      cpuCount: expect.any(Number),
      cpuUsedPct: expect.any(Number),
      memUsed: expect.any(Number),
      memTotal: expect.any(Number),
      memCache: undefined,
      diskUsed: expect.any(Number),
      diskTotal: expect.any(Number),
    })
    const busiest = Math.max(...metrics.map((m) => m.cpuUsedPct))
    // One core of `cpuCount` busy, give or take the sampling.
    expect(busiest).toBeGreaterThan((100 / (last?.cpuCount ?? 1)) * 0.5)
    expect(busiest).toBeLessThanOrEqual(100)
    expect(Math.max(...metrics.map((m) => m.memUsed))).toBeGreaterThan(64 * 1024 * 1024)
    expect(last?.memUsed).toBeLessThan(last?.memTotal ?? 0)
    expect(last?.diskUsed).toBeGreaterThanOrEqual(8 * 1024 * 1024)
    expect(last?.diskTotal).toBeGreaterThan(last?.diskUsed ?? 0)
    const times = metrics.map((m) => m.timestamp.getTime())
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it('filters by start and end, takes no samples while paused, and refuses bad input', async () => {
    const id = sandbox.sandboxId
    const wire = async (query = '') => {
      const res = await tp.api('GET', `/sandboxes/${id}/metrics${query}`)
      return { status: res.status, body: await res.json() }
    }
    const all = await wire()
    expect(all.status).toBe(200)
    expect(Object.keys(all.body[0]).sort()).toEqual(
      [
        'cpuCount',
        'cpuUsedPct',
        'diskTotal',
        'diskUsed',
        'memTotal',
        'memUsed',
        'timestamp',
        'timestampUnix',
      ].sort(),
    )
    const first = all.body[0].timestampUnix
    expect((await wire(`?end=${first - 1}`)).body).toEqual([])
    expect((await wire(`?start=${first}`)).body.length).toBeGreaterThan(0)

    await sandbox.betaPause()
    const paused = (await wire()).body.length
    await sleep(sampleMs * 4)
    expect((await wire()).body.length).toBe(paused)
    await Sandbox.connect(id)
    await sleep(sampleMs * 4)
    expect((await wire()).body.length).toBeGreaterThan(paused)

    for (const query of ['?start=abc', '?start=-5', '?end=1e9', `?start=${first}&end=${first - 10}`]) {
      const res = await wire(query)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ code: 400, message: expect.any(String) })
    }
    const unknown = await tp.api('GET', '/sandboxes/aaaaaaaaaaaaaaaaaaaa/metrics')
    expect(unknown.status).toBe(404)
    await expect(Sandbox.getMetrics('aaaaaaaaaaaaaaaaaaaa')).rejects.toThrow(SandboxNotFoundError)
  })
})
