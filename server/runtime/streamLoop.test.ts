import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Code, ConnectError } from '@connectrpc/connect'
import { describe, expect, it } from 'vitest'
import { Channel } from './channel'
import { releaseWhenClientLeaves, withKeepalive } from './streamLoop'

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
    // Weak references to every item that went through: after a full GC only the last few may
    // live. (Counting the process's ArrayBuffer bytes instead was flaky: V8 frees backing stores
    // on a concurrent sweeper, after gc() returns.)
    const yielded: WeakRef<Uint8Array>[] = []
    for (let i = 0; i < 2000; i++) {
      channel.push(new Uint8Array(64 * 1024))
      const { value } = await stream.next()
      yielded.push(new WeakRef(value as Uint8Array))
    }
    // A WeakRef holds its target until the current job ends: let it end before collecting.
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    // 125 MiB went through; what stays is a few items at most (8 MiB before, in items of 64 KiB).
    expect(yielded.filter((ref) => ref.deref() !== undefined).length).toBeLessThan(128)
    channel.close()
    await stream.next()
  })
})

describe('releaseWhenClientLeaves', () => {
  it('releases once when the client goes away, though the stream is never resumed to its finally', () => {
    const client = new AbortController()
    let released = 0
    const release = releaseWhenClientLeaves(client.signal, () => released++)
    expect(released).toBe(0)
    client.abort()
    expect(released).toBe(1)
    release() // the stream's finally, if it ever runs
    expect(released).toBe(1)
  })

  it('releases once from the finally when the stream ends first, and not again on a later abort', () => {
    const client = new AbortController()
    let released = 0
    releaseWhenClientLeaves(client.signal, () => released++)()
    client.abort()
    expect(released).toBe(1)
  })

  it('leaves a deadline to the stream, which is still read and ends with deadline_exceeded', () => {
    const client = new AbortController()
    let released = 0
    const release = releaseWhenClientLeaves(client.signal, () => released++)
    client.abort(new ConnectError('deadline', Code.DeadlineExceeded))
    expect(released).toBe(0)
    release()
    expect(released).toBe(1)
  })

  it('releases at once when the client went away before the stream got this far', () => {
    const client = new AbortController()
    client.abort()
    let released = 0
    releaseWhenClientLeaves(client.signal, () => released++)
    expect(released).toBe(1)
  })
})
