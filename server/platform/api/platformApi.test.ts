// The platform API on the wire: status codes, E2B's shapes and error bodies, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envdVersion } from '../../runtime/version'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'

describe('platform API', () => {
  let tp: TestPlatform
  beforeAll(async () => {
    tp = await startTestPlatform({ maxSandboxes: 3 })
  })
  afterAll(() => tp.close())

  const create = async (body: unknown = {}) => {
    const res = await tp.api('POST', '/v2/sandboxes', body)
    expect(res.status).toBe(201)
    return (await res.json()) as { sandboxID: string; envdAccessToken: string }
  }

  it('refuses a missing or wrong API key with 401 and E2B’s error body', async () => {
    for (const headers of [{ 'X-API-Key': '' }, { 'X-API-Key': 'wrong' }]) {
      const res = await fetch(`${tp.url}/v2/sandboxes`, { headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ code: 401, message: expect.stringContaining('API key') })
    }
    expect((await fetch(`${tp.url}/sandboxes/abc`, { method: 'DELETE' })).status).toBe(401)
  })

  it('creates a sandbox with E2B’s Sandbox shape and a token of its own', async () => {
    const res = await tp.api('POST', '/v2/sandboxes', {
      templateID: 'base',
      timeout: 120,
      metadata: { owner: 'test' },
    })
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body).toEqual({
      templateID: 'base',
      sandboxID: expect.stringMatching(/^[a-z0-9]{20}$/),
      alias: 'base',
      clientID: 'local',
      envdVersion,
      envdAccessToken: expect.stringMatching(/^ea_/),
      trafficAccessToken: null,
      domain: null,
    })
    const detail = await (await tp.api('GET', `/sandboxes/${body.sandboxID}`)).json()
    expect(detail).toMatchObject({
      sandboxID: body.sandboxID,
      state: 'running',
      metadata: { owner: 'test' },
      envdAccessToken: body.envdAccessToken,
      envdVersion,
      isolation: tp.platform.launcher.isolation,
      processesLost: false,
      lifecycle: { onTimeout: 'kill', autoResume: false },
    })
    const ends = Date.parse(detail.endAt) - Date.parse(detail.startedAt)
    expect(ends).toBeGreaterThan(110_000)
    expect(ends).toBeLessThanOrEqual(121_000)
    await tp.api('DELETE', `/sandboxes/${body.sandboxID}`)
  })

  it('pauses (204), refuses a second pause (409), connects back (201, then 200) and kills (204, then 404)', async () => {
    const { sandboxID: id } = await create()
    expect((await tp.api('POST', `/sandboxes/${id}/pause`)).status).toBe(204)
    expect((await (await tp.api('GET', `/sandboxes/${id}`)).json()).state).toBe('paused')
    const again = await tp.api('POST', `/sandboxes/${id}/pause`)
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({
      code: 409,
      message: `Error pausing sandbox - sandbox '${id}' is already paused`,
    })
    const resumed = await tp.api('POST', `/v2/sandboxes/${id}/connect`, { timeout: 60 })
    expect(resumed.status).toBe(201)
    expect((await resumed.json()).sandboxID).toBe(id)
    expect((await tp.api('POST', `/sandboxes/${id}/connect`, { timeout: 60 })).status).toBe(200)
    expect((await tp.api('POST', `/sandboxes/${id}/resume`, {})).status).toBe(409)
    expect((await tp.api('DELETE', `/sandboxes/${id}`)).status).toBe(204)
    const gone = await tp.api('GET', `/sandboxes/${id}`)
    expect(gone.status).toBe(404)
    expect(await gone.json()).toEqual({
      code: 404,
      message: `Sandbox "${id}" doesn't exist or you don't have access to it`,
    })
    expect((await tp.api('POST', `/sandboxes/${id}/pause`)).status).toBe(404)
  })

  it('lists sandboxes newest first with state and metadata filters and pages with X-Next-Token', async () => {
    const a = await create({ metadata: { team: 'x' } })
    const b = await create({ metadata: { team: 'y' } })
    await tp.api('POST', `/sandboxes/${b.sandboxID}/pause`)
    const ids = async (query: string) =>
      ((await (await tp.api('GET', `/v2/sandboxes${query}`)).json()) as { sandboxID: string }[]).map(
        (s) => s.sandboxID,
      )
    expect(await ids('')).toEqual([b.sandboxID, a.sandboxID])
    expect(await ids('?state=paused')).toEqual([b.sandboxID])
    expect(await ids(`?metadata=${encodeURIComponent('team=x')}`)).toEqual([a.sandboxID])
    const first = await tp.api('GET', '/v2/sandboxes?limit=1')
    const token = first.headers.get('x-next-token')
    expect(token).toBeTruthy()
    expect(await ids(`?limit=1&nextToken=${token}`)).toEqual([a.sandboxID])
    const v1 = (await (await tp.api('GET', '/sandboxes')).json()) as { sandboxID: string; state: string }[]
    expect(v1.map((s) => s.sandboxID)).toEqual([a.sandboxID])
    expect((await tp.api('GET', '/v2/sandboxes?state=sleeping')).status).toBe(400)
    await tp.api('DELETE', `/sandboxes/${a.sandboxID}`)
    await tp.api('DELETE', `/sandboxes/${b.sandboxID}`)
  })

  it('sets a timeout that kills the sandbox when it runs out, or pauses it with autoPause', async () => {
    const killed = await create({ timeout: 60 })
    expect((await tp.api('POST', `/sandboxes/${killed.sandboxID}/timeout`, { timeout: 1 })).status).toBe(204)
    const paused = await create({ timeout: 1, autoPause: true })
    await expect
      .poll(async () => (await tp.api('GET', `/sandboxes/${killed.sandboxID}`)).status, { timeout: 8000 })
      .toBe(404)
    await expect
      .poll(async () => (await (await tp.api('GET', `/sandboxes/${paused.sandboxID}`)).json()).state, {
        timeout: 8000,
      })
      .toBe('paused')
    await tp.api('DELETE', `/sandboxes/${paused.sandboxID}`)
  })

  it('answers bad bodies with 400 and a message that says what is wrong', async () => {
    const cases: [unknown, string][] = [
      ['{not json', 'malformed JSON'],
      ['[]', 'invalid request body'],
      [{ timeout: 'soon' }, "at 'timeout'"],
      [{ timeout: -1 }, "at 'timeout'"],
      [{ templateID: 'base', surprise: true }, 'surprise'],
      [{ metadata: { a: 1 } }, "at 'metadata.a'"],
      [{ templateID: '../base' }, 'template id "../base" is not valid'],
    ]
    for (const [body, says] of cases) {
      const res = await tp.api('POST', '/v2/sandboxes', body)
      expect(res.status).toBe(400)
      const error = await res.json()
      expect(error.code).toBe(400)
      expect(error.message).toContain(says)
    }
    const notJson = await tp.api('POST', '/v2/sandboxes', '{}', { 'Content-Type': 'text/plain' })
    expect(notJson.status).toBe(400)
    expect((await tp.api('POST', '/sandboxes/abc/timeout', {})).status).toBe(400)
  })

  it('refuses a huge body with 413 without reading it all', async () => {
    const res = await tp.api('POST', '/v2/sandboxes', `{"metadata":{"a":"${'x'.repeat(2 * 1024 * 1024)}"}}`)
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe(413)
  })

  it('answers hostile and unknown ids and paths clearly', async () => {
    for (const path of [
      '/sandboxes/..%2f..%2fetc',
      '/sandboxes/%00',
      '/sandboxes/AB$CD',
      '/sandboxes/%E0%A4%A',
    ]) {
      const res = await tp.api('GET', path)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ code: 400, message: 'invalid sandbox id' })
    }
    expect((await tp.api('GET', `/sandboxes/${'a'.repeat(20)}`)).status).toBe(404)
    expect((await tp.api('GET', '/sandboxes/abc/files')).status).toBe(404)
    const wrongMethod = await tp.api('PUT', '/v2/sandboxes')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST')
  })

  it('answers 429 past the sandbox limit, and creates again once one is gone', async () => {
    const made = await Promise.all([create(), create(), create()])
    const over = await tp.api('POST', '/v2/sandboxes', {})
    expect(over.status).toBe(429)
    expect((await over.json()).message).toContain('limit')
    await tp.api('DELETE', `/sandboxes/${made[0]?.sandboxID}`)
    const again = await create()
    for (const s of [...made.slice(1), again]) await tp.api('DELETE', `/sandboxes/${s.sandboxID}`)
  })
})
