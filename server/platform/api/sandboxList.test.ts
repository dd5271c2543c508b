// GET /v2/sandboxes on a real platform, as E2B answers it: newest first, paged by a keyset cursor
// (X-Next-Token) in that order, oldest first on `order=asc`, filtered by state, metadata,
// startedAfter and template, with X-Total-Running; and the official SDK paging through it.
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { pointSdkAt } from '../testing/sdkEnv'

interface Listed {
  sandboxID: string
  state: string
  startedAt: string
}

describe('GET /v2/sandboxes', () => {
  let tp: TestPlatform
  let restoreEnv = () => {}
  /** Created in this order, each with metadata `run=list`; `b` paused. */
  let a: string
  let b: string
  let c: string

  const list = async (query: Record<string, string> = {}) => {
    const params = new URLSearchParams({ metadata: 'run=list', ...query })
    const res = await tp.api('GET', `/v2/sandboxes?${params}`)
    const body = await res.json()
    if (res.status !== 200) return { status: res.status, body, ids: [], next: null, running: null }
    return {
      status: res.status,
      body,
      rows: body as Listed[],
      ids: (body as Listed[]).map((s) => s.sandboxID),
      next: res.headers.get('x-next-token'),
      running: res.headers.get('x-total-running'),
    }
  }
  /** Every page of a listing, following X-Next-Token. */
  const pages = async (query: Record<string, string>) => {
    const found: string[][] = []
    let next: string | null = null
    do {
      const page = await list({ ...query, ...(next ? { nextToken: next } : {}) })
      expect(page.status).toBe(200)
      found.push(page.ids)
      next = page.next
    } while (next && found.length < 10)
    return found
  }

  beforeAll(async () => {
    tp = await startTestPlatform()
    restoreEnv = pointSdkAt(tp)
    await tp.createSandbox({ metadata: { run: 'other' } })
    a = (await tp.createSandbox({ metadata: { run: 'list' } })).sandboxID
    b = (await tp.createSandbox({ metadata: { run: 'list' } })).sandboxID
    c = (await tp.createSandbox({ metadata: { run: 'list' } })).sandboxID
    expect((await tp.api('POST', `/sandboxes/${b}/pause`)).status).toBe(204)
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  it('lists newest first and pages in that order, the last page without a token', async () => {
    expect((await list()).ids).toEqual([c, b, a])
    expect(await pages({ limit: '1' })).toEqual([[c], [b], [a]])
    expect(await pages({ limit: '2' })).toEqual([[c, b], [a]])
    const whole = await list({ limit: '3' })
    expect(whole.ids).toEqual([c, b, a])
    expect(whole.next).toBeNull()
  })

  it('says how many running sandboxes match, before paging, only when running ones are asked for', async () => {
    expect((await list({ limit: '1' })).running).toBe('2')
    expect((await list({ state: 'running' })).running).toBe('2')
    expect((await list({ state: 'paused' })).running).toBeNull()
  })

  it('filters by state, one or several', async () => {
    expect((await list({ state: 'running' })).ids).toEqual([c, a])
    expect((await list({ state: 'paused' })).ids).toEqual([b])
    expect((await list({ state: 'running,paused' })).ids).toEqual([c, b, a])
    expect(await pages({ state: 'running', limit: '1' })).toEqual([[c], [a]])
  })

  it('lists oldest first on order=asc, and refuses a token of the other order or a made-up one', async () => {
    expect(await pages({ order: 'asc', limit: '1' })).toEqual([[a], [b], [c]])
    const asc = await list({ order: 'asc', limit: '1' })
    const desc = await list({ limit: '1' })
    for (const [order, token] of [
      ['desc', asc.next],
      ['asc', desc.next],
      ['desc', 'bm90IGEgY3Vyc29y'],
      ['desc', '%%%'],
    ] as const) {
      const refused = await list({ order, nextToken: token ?? '' })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ code: 400, message: 'Invalid next token' })
    }
    expect((await list({ order: 'sideways' })).status).toBe(400)
    for (const limit of ['0', '101', 'ten']) expect((await list({ limit })).status).toBe(400)
  })

  it('keeps its place across pages: a sandbox made meanwhile is not served in the later pages', async () => {
    const first = await list({ limit: '1' })
    expect(first.ids).toEqual([c])
    const d = (await tp.createSandbox({ metadata: { run: 'list' } })).sandboxID
    try {
      const second = await list({ limit: '1', nextToken: first.next ?? '' })
      expect(second.ids).toEqual([b])
      const third = await list({ limit: '1', nextToken: second.next ?? '' })
      expect(third.ids).toEqual([a])
      expect(third.next).toBeNull()
      expect((await list()).ids).toEqual([d, c, b, a])
    } finally {
      await tp.api('DELETE', `/sandboxes/${d}`)
    }
  })

  it('filters by startedAfter (inclusive) and by template', async () => {
    const rows = (await list()).rows ?? []
    const startedB = rows.find((r) => r.sandboxID === b)?.startedAt ?? ''
    expect((await list({ startedAfter: startedB })).ids).toEqual([c, b])
    const justAfter = new Date(Date.parse(startedB) + 1).toISOString()
    expect((await list({ startedAfter: justAfter })).ids).toEqual([c])
    expect((await list({ startedAfter: 'yesterday' })).status).toBe(400)

    expect((await list({ template: 'base' })).ids).toEqual([c, b, a])
    const none = await list({ template: 'no-such-template' })
    expect(none.ids).toEqual([])
    expect(none.running).toBe('0')
    const tagged = await list({ template: 'base:v1' })
    expect(tagged.status).toBe(400)
    expect(tagged.body.message).toContain('tags are not supported')
  })

  it('lists the v1 way (GET /sandboxes): running ones only, newest first', async () => {
    const res = await tp.api('GET', `/sandboxes?${new URLSearchParams({ metadata: 'run=list' })}`)
    expect(((await res.json()) as Listed[]).map((s) => s.sandboxID)).toEqual([c, a])
  })

  it('pages through the official SDK with metadata holding = and &', async () => {
    const odd = { run: 'sdk', note: 'a=b&c d' }
    const x = (await tp.createSandbox({ metadata: odd })).sandboxID
    const y = (await tp.createSandbox({ metadata: odd })).sandboxID
    await tp.createSandbox({ metadata: { run: 'sdk', note: 'a=b' } })
    const paginator = Sandbox.list({ query: { metadata: odd }, limit: 1 })
    const seen: string[] = []
    while (paginator.hasNext) {
      for (const info of await paginator.nextItems()) seen.push(info.sandboxId)
    }
    expect(seen).toEqual([y, x])
    const oldestFirst = await Sandbox.list({ query: { metadata: odd }, order: 'asc' }).nextItems()
    expect(oldestFirst.map((s) => s.sandboxId)).toEqual([x, y])
  })

  it('puts a resumed sandbox first, as a sandbox started anew', async () => {
    expect((await tp.api('POST', `/sandboxes/${b}/resume`, {})).status).toBe(201)
    const after = await list()
    expect(after.ids).toEqual([b, c, a])
    expect(after.running).toBe('3')
  })
})
