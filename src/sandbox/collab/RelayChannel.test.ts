// The collaboration relay against a real runtime: two pages (two sessions) that open at the same
// moment end on one relay and hear each other, big messages and many small ones arrive whole
// and in order, garbage written into the relay hurts nobody, and a relay that dies is found again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../../server/runtime/testing/runtimeFixture'
import { SandboxSession } from '../SandboxSession'
import { pidSelector } from '../sandboxProcesses'
import { until } from '../testing/until'
import { RelayChannel, relayTag } from './RelayChannel'
import type { RelayMessage } from './relayFraming'

const text = (m: RelayMessage) => new TextDecoder().decode(m.payload)
const bytes = (s: string) => new TextEncoder().encode(s)

describe('RelayChannel', { timeout: 60_000 }, () => {
  let rt: TestRuntime
  const sessions: SandboxSession[] = []
  const page = async () => {
    const session = new SandboxSession({ source: 'runtime', runtimeUrl: rt.url, accessToken: rt.token ?? '' })
    session.start()
    sessions.push(session)
    await until('the session', () => (session.getSnapshot().state.kind === 'running' ? true : undefined))
    const channel = new RelayChannel(session)
    const heard: RelayMessage[] = []
    channel.onMessage((m) => heard.push(m))
    return { session, channel, heard }
  }
  const relays = async (session: SandboxSession) =>
    (await session.processes.list()).filter((p) => p.tag === relayTag).map((p) => p.pid)

  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(async () => {
    for (const s of sessions) s.dispose()
    await rt?.close()
  })

  it('two pages opening at once share one relay and hear each other, not themselves', async () => {
    const [a, b] = await Promise.all([page(), page()])
    await Promise.all([a.channel.connect(), b.channel.connect()])
    await until('one relay left', async () => ((await relays(a.session)).length === 1 ? true : undefined))
    a.channel.publish('doc:/x', bytes('from a'))
    b.channel.publish('doc:/x', bytes('from b'))
    await until('both heard', () => (a.heard.length && b.heard.length ? true : undefined))
    expect(a.heard.map(text)).toEqual(['from b'])
    expect(b.heard.map(text)).toEqual(['from a'])
    expect(b.heard[0]?.sender).toBe(a.channel.me)
    a.channel.dispose()
    b.channel.dispose()
  })

  it('carries a megabyte and a thousand small messages from two pages, each whole and in its order', async () => {
    const [a, b, c] = await Promise.all([page(), page(), page()])
    await Promise.all([a.channel.connect(), b.channel.connect(), c.channel.connect()])
    const big = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) & 0xff)
    a.channel.publish('big', big)
    for (let i = 0; i < 500; i++) {
      a.channel.publish('n', bytes(`a${i}`))
      b.channel.publish('n', bytes(`b${i}`))
    }
    await until('all heard', () => (c.heard.length === 1001 ? true : undefined))
    const from = (sender: string) => c.heard.filter((m) => m.sender === sender && m.topic === 'n').map(text)
    expect(from(a.channel.me)).toEqual(Array.from({ length: 500 }, (_, i) => `a${i}`))
    expect(from(b.channel.me)).toEqual(Array.from({ length: 500 }, (_, i) => `b${i}`))
    const got = c.heard.find((m) => m.topic === 'big')?.payload
    expect(got && Buffer.from(got).equals(Buffer.from(big))).toBe(true)
    for (const p of [a, b, c]) p.channel.dispose()
  })

  it('garbage written into the relay by anyone is dropped; the pages go on', async () => {
    const [a, b] = await Promise.all([page(), page()])
    await Promise.all([a.channel.connect(), b.channel.connect()])
    const [pid] = await relays(a.session)
    await a.session.clients?.process.sendInput({
      process: pidSelector(pid as number),
      input: { input: { case: 'stdin', value: bytes('not a frame\nY1 x 1 0/1 t ###\n\0\0\0\n') } },
    })
    a.channel.publish('t', bytes('still here'))
    await until('heard', () => (b.heard.length ? true : undefined))
    expect(b.heard.map(text)).toEqual(['still here'])
    a.channel.dispose()
    b.channel.dispose()
  })

  it('a relay that dies closes the channel; connecting again finds or starts one', async () => {
    const [a, b] = await Promise.all([page(), page()])
    await Promise.all([a.channel.connect(), b.channel.connect()])
    const closed = new Promise<void>((resolve) => a.channel.onStateChange(() => !a.channel.open && resolve()))
    const [pid] = await relays(a.session)
    await a.session.processes.signal(pid as number, 'SIGKILL')
    await closed
    await until('b closed too', () => (b.channel.open ? undefined : true))
    await Promise.all([a.channel.connect(), b.channel.connect()])
    b.channel.publish('t', bytes('again'))
    await until('heard again', () => (a.heard.length ? true : undefined))
    expect(a.heard.map(text)).toEqual(['again'])
  })
})
