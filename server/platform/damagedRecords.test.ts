// What the stack does with records it cannot read: the sandboxes' stops the start before
// anything is mounted; the others are set aside, said so, and the stack goes on without them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DamagedRecordError } from './recordFile'
import { ideCall } from './testing/ideCall'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'

const mountsUnder = (dir: string) =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((line) => line.split(' ')[4]?.startsWith(`${dir}/`))

describe('damaged records', () => {
  let tp: TestPlatform | undefined
  let dataDir: string
  afterEach(async () => {
    await tp?.close()
    tp = undefined
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('stop the start when the sandboxes’ file is damaged, having mounted nothing and changed nothing', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'damaged-records-'))
    writeFileSync(join(dataDir, 'sandboxes.json'), '[{"sandboxID": "abc", "envdAccess')
    await expect(startTestPlatform({ dataDir })).rejects.toThrow(
      new DamagedRecordError(join(dataDir, 'sandboxes.json'), 'it is not valid JSON'),
    )
    expect(mountsUnder(dataDir)).toEqual([])
    expect(readdirSync(dataDir)).toEqual(['sandboxes.json'])
  })

  it('set the others aside, say so, and go on; a killed write’s leftovers are removed', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'damaged-records-'))
    writeFileSync(join(dataDir, 'join-links.json'), '{"not": "a list"}')
    writeFileSync(join(dataDir, 'remotes.json'), '[{"remoteId": "0123456789ab", "apiKey": "e2b_')
    // What a write killed before its rename leaves (this pid is surely not a live process).
    writeFileSync(join(dataDir, 'sandboxes.json.99999999.tmp'), '[{"half')
    const lines: string[] = []
    tp = await startTestPlatform({ dataDir, isolation: 'none' }, { log: (line) => lines.push(line) })
    // Join links are read when first asked for: listing them does.
    const res = await ideCall(tp.platform, 'GET', '/join-links')
    expect(res.status).toBe(200)
    expect(res.json).toEqual([])
    const reported = lines.filter((line) => line.startsWith('records: '))
    expect(reported).toEqual([
      expect.stringMatching(
        /^records: \S+\/remotes\.json is damaged: it is not valid JSON; set aside as remotes\.json\.damaged-\S+, going on without it$/,
      ),
      expect.stringMatching(
        /^records: \S+\/join-links\.json is damaged: it does not hold a list of join links; set aside as join-links\.json\.damaged-\S+, going on without it$/,
      ),
    ])
    expect(reported.join('\n')).not.toContain('e2b_')
    const files = readdirSync(dataDir)
    expect(files.filter((f) => f.includes('.damaged-')).sort()).toEqual([
      expect.stringMatching(/^join-links\.json\.damaged-/),
      expect.stringMatching(/^remotes\.json\.damaged-/),
    ])
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})
