import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Code, ConnectError } from '@connectrpc/connect'
import { describe, expect, it } from 'vitest'
import { Channel } from './channel'
import { withKeepalive } from './streamLoop'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

describe('withKeepalive', () => {
  it('yields items, then keepalives while quiet, and ends with the channel', async () => {
    const channel = new Channel<string>()
    const stream = withKeepalive(channel, 20, () => 'ping', new AbortController().signal)
    channel.push('a')
    expect((await stream.next()).value).toBe('a')
    expect((await stream.next()).value).toBe('ping')
    channel.close()
    expect((await stream.next()).done).toBe(true)
  })

  it('ends a deadline with deadline_exceeded and a departed client quietly', async () => {
    const deadline = new AbortController()
    const timedOut = withKeepalive(new Channel<string>(), 60_000, () => 'ping', deadline.signal)
    const next = timedOut.next()
    deadline.abort(new ConnectError('the operation timed out', Code.DeadlineExceeded))
    await expect(next).rejects.toMatchObject({ code: Code.DeadlineExceeded })
    const left = new AbortController()
    const quiet = withKeepalive(new Channel<string>(), 60_000, () => 'ping', left.signal)
    const pending = quiet.next()
    left.abort()
    expect((await pending).done).toBe(true)
  })

  it('keeps nothing it has yielded: a long stream holds no memory', async () => {
    const channel = new Channel<Uint8Array>()
    const stream = withKeepalive(channel, 60_000, () => new Uint8Array(0), new AbortController().signal)
    gc()
    const before = process.memoryUsage().arrayBuffers
    for (let i = 0; i < 2000; i++) {
      channel.push(new Uint8Array(64 * 1024))
      await stream.next()
    }
    gc()
    // 125 MiB went through; what stays is a few items at most.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024)
    channel.close()
    await stream.next()
  })
})
