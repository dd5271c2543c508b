// A stop that meets sandboxes being created and resumed waits for them: nothing is mounted after
// its unmounts, and the calls end with an answer (done, or refused because the stack stops).
import { readFileSync, rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { mountsUnder } from './disk/staleMounts'
import { startTestPlatform } from './testing/platformFixture'

describe('stopping the platform while it is busy', () => {
  it('waits for creates and resumes under way, then leaves nothing mounted', async () => {
    const lines: string[] = []
    const tp = await startTestPlatform({}, { log: (line) => lines.push(line) })
    const { manager } = tp.platform
    const paused = await manager.create({ templateID: 'base' })
    await manager.pause(paused.sandboxID)
    // Under way when the stop begins: three creates and a resume.
    const calls = [
      manager.create({ templateID: 'base' }),
      manager.create({ templateID: 'base' }),
      manager.create({ templateID: 'base' }),
      manager.connect(paused.sandboxID, 60),
    ]
    await tp.close({ keepData: true })
    const outcomes = await Promise.allSettled(calls)
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/stopping/)
    expect(mountsUnder(tp.dataDir)).toEqual([])
    // Unmounted in order by the stop itself, not by its last sweep, which says what it found.
    expect(lines.filter((line) => line.includes('left after stopping'))).toEqual([])
    // Every sandbox it kept is in its records, paused or with its processes gone.
    const records = JSON.parse(readFileSync(`${tp.dataDir}/sandboxes.json`, 'utf8')) as {
      sandboxID: string
    }[]
    expect(records.map((r) => r.sandboxID)).toContain(paused.sandboxID)
    await expect(manager.create({ templateID: 'base' })).rejects.toMatchObject({ status: 503 })
    rmSync(tp.dataDir, { recursive: true, force: true })
  }, 120_000)
})
