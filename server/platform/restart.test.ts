// A platform restart keeps every sandbox's files; sandboxes come back paused and say their
// processes are gone; resuming starts a fresh runtime on the same files.
import { afterAll, describe, expect, it } from 'vitest'
import { envelope } from '../runtime/testing/wire'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'

async function run(tp: TestPlatform, id: string, token: string, script: string): Promise<string> {
  const res = await fetch(`${tp.url}/process.Process/Start`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': token, 'E2b-Sandbox-Id': id },
    body: envelope(JSON.stringify({ process: { cmd: 'sh', args: ['-c', script] } })),
  })
  const text = Buffer.from(await res.arrayBuffer()).toString('latin1')
  return [...text.matchAll(/"stdout":"([^"]+)"/g)]
    .map((m) => Buffer.from(m[1] as string, 'base64').toString())
    .join('')
}

describe('platform restart', () => {
  let second: TestPlatform | undefined
  afterAll(() => second?.close())

  it('brings sandboxes back paused with their files, and resumes them with a fresh runtime', async () => {
    const first = await startTestPlatform()
    const { sandboxID: id, envdAccessToken: token } = await (
      await first.api('POST', '/v2/sandboxes', {})
    ).json()
    expect(await run(first, id, token, 'echo kept > notes.txt && cat notes.txt')).toBe('kept\n')
    await first.close({ keepData: true })

    second = await startTestPlatform({ dataDir: first.dataDir })
    const detail = await (await second.api('GET', `/sandboxes/${id}`)).json()
    expect(detail).toMatchObject({ state: 'paused', processesLost: true, envdAccessToken: token })
    const resumed = await second.api('POST', `/v2/sandboxes/${id}/connect`, { timeout: 60 })
    expect(resumed.status).toBe(201)
    expect(await run(second, id, token, 'cat notes.txt')).toBe('kept\n')
    expect((await (await second.api('GET', `/sandboxes/${id}`)).json()).processesLost).toBe(false)
  })
})
