// The page's side of submitting: which calls reach the stack's /ide/api, and what its answers
// become (a lab it does not grade is no error, any other refusal keeps the stack's words).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { labSubmissions } from './labSubmissions'
import { SandboxError } from './sandboxError'

/** Answers every fetch with `status` and `body`, and records what was asked. */
function stackAnswering(status: number, body: unknown) {
  const calls: { url: string; method: string | undefined }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method })
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
    }),
  )
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('labSubmissions', () => {
  it("submits and lists a local sandbox's submissions at /ide/api", async () => {
    const calls = stackAnswering(200, [])
    const submissions = labSubmissions({ source: 'local', sandboxId: 'ab c' })
    expect(await submissions?.list()).toEqual([])
    await submissions?.submit()
    expect(calls).toEqual([
      { url: '/ide/api/sandboxes/ab%20c/submissions', method: 'GET' },
      { url: '/ide/api/sandboxes/ab%20c/submissions', method: 'POST' },
    ])
  })

  it("takes the stack's 409 for a lab it does not grade, and keeps its words for any other refusal", async () => {
    stackAnswering(409, { message: 'this sandbox is not of a graded lab' })
    const submissions = labSubmissions({ source: 'local', sandboxId: 'sbx' })
    expect(await submissions?.list()).toBeUndefined()
    await expect(submissions?.submit()).rejects.toThrow('this sandbox is not of a graded lab')

    stackAnswering(403, { message: "a student's join link opens their own sandbox only" })
    const refused = await submissions?.list().catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(SandboxError)
    expect(refused).toMatchObject({
      kind: 'denied',
      message: "a student's join link opens their own sandbox only",
    })
  })

  it("submits an E2B remote's sandbox through the stack, which grades it there", async () => {
    const calls = stackAnswering(200, [])
    const submissions = labSubmissions({ source: 'e2b', remoteId: 'r1', sandboxId: 'sbx' })
    expect(await submissions?.list()).toEqual([])
    await submissions?.submit()
    await submissions?.due()
    expect(calls).toEqual([
      { url: '/ide/api/remotes/r1/sandboxes/sbx/submissions', method: 'GET' },
      { url: '/ide/api/remotes/r1/sandboxes/sbx/submissions', method: 'POST' },
      { url: '/ide/api/remotes/r1/sandboxes/sbx/deadline', method: 'GET' },
    ])
  })

  it('offers nothing where the stack does not grade: a bare runtime', () => {
    expect(labSubmissions({ source: 'runtime', runtimeUrl: 'http://x', accessToken: 't' })).toBeUndefined()
  })
})
