// The router's way to a paused auto-resume sandbox when the resume itself goes wrong, which the
// real stack does not do on demand: a resume that hangs is given up within the bound (E2B's 409),
// one that fails says why, one whose processes are gone is not started by a request, and envd's
// port without the token never asks for a resume. The manager here is a stand-in with the three
// calls reachSandbox makes; autoResume.sdk.test.ts covers the real stack.
import { describe, expect, it } from 'vitest'
import { envdPort } from '../../src/contract/runtimeExtensions'
import { PlatformError } from './platformError'
import type { SandboxManager, TrafficResume } from './sandboxManager'
import { reachSandbox } from './sandboxReach'
import type { SandboxRecord } from './sandboxRecord'

const sandboxId = 'a'.repeat(20)
const runtime = { port: 1234, accessToken: 'ea_token' }

/** A paused auto-resume sandbox whose resume does `resume`; counts the resumes asked for. */
function pausedSandbox(resume: () => Promise<TrafficResume>) {
  let running = false
  const asked = { count: 0 }
  const manager: Pick<SandboxManager, 'route' | 'get' | 'resumeForTraffic'> = {
    route: () => (running ? { kind: 'running', runtime } : { kind: 'paused' }),
    get: () => ({ envdAccessToken: 'ea_token', autoResume: { timeoutSeconds: 300 } }) as SandboxRecord,
    resumeForTraffic: async () => {
      asked.count++
      const outcome = await resume()
      running = outcome === 'resumed' || outcome === 'running'
      return outcome
    },
  }
  return { manager, asked }
}

describe('reachSandbox', () => {
  it('goes to the runtime once the sandbox is resumed', async () => {
    const { manager, asked } = pausedSandbox(async () => 'resumed')
    expect(await reachSandbox(manager, { sandboxId, port: 8000 }, undefined)).toEqual({
      kind: 'running',
      runtime,
    })
    expect(asked.count).toBe(1)
  })

  it('gives up on a resume that takes too long with E2B’s 409, within the bound', async () => {
    const { manager } = pausedSandbox(() => new Promise(() => {}))
    const started = Date.now()
    const way = await reachSandbox(manager, { sandboxId, port: 8000 }, undefined, { waitMs: 100 })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(way).toEqual({
      kind: 'refused',
      status: 409,
      why: { sandboxId, message: 'The sandbox is still transitioning. Try again in a moment.' },
    })
  })

  it('says why a resume failed, and that a sandbox killed meanwhile is not found', async () => {
    const failed = pausedSandbox(() => Promise.reject(new Error('thaw failed: EACCES')))
    expect(await reachSandbox(failed.manager, { sandboxId, port: 8000 }, undefined)).toEqual({
      kind: 'refused',
      status: 502,
      why: { sandboxId, message: 'The sandbox could not be resumed (thaw failed: EACCES)' },
    })
    const killed = pausedSandbox(() => Promise.reject(new PlatformError(404, 'gone')))
    expect(await reachSandbox(killed.manager, { sandboxId, port: 8000 }, undefined)).toEqual({
      kind: 'refused',
      status: 502,
      why: { sandboxId, message: 'The sandbox was not found' },
    })
  })

  it('leaves a sandbox whose processes are gone to an explicit resume', async () => {
    const { manager } = pausedSandbox(async () => 'processesLost')
    expect(await reachSandbox(manager, { sandboxId, port: 8000 }, undefined)).toMatchObject({
      kind: 'refused',
      status: 502,
      why: { message: expect.stringMatching(/processes are gone.*resume it \(connect\)/) },
    })
  })

  it('asks envd’s port for the sandbox’s token before any resume', async () => {
    const { manager, asked } = pausedSandbox(async () => 'resumed')
    for (const token of [undefined, '', 'ea_tokeN', 'ea_token '])
      expect(await reachSandbox(manager, { sandboxId, port: envdPort }, token)).toMatchObject({ status: 403 })
    expect(asked.count).toBe(0)
    expect(await reachSandbox(manager, { sandboxId, port: envdPort }, 'ea_token')).toMatchObject({
      kind: 'running',
    })
  })

  it('resumes nothing for a port that cannot exist', async () => {
    const { manager, asked } = pausedSandbox(async () => 'resumed')
    expect(await reachSandbox(manager, { sandboxId, port: 70000 }, undefined)).toMatchObject({ status: 502 })
    expect(asked.count).toBe(0)
  })
})
