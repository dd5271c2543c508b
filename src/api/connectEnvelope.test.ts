import { Code } from '@connectrpc/connect'
import { describe, expect, it } from 'vitest'
import { concatBytes } from '../common/concatBytes'
import {
  decodeEnvelopes,
  EnvelopeSplitter,
  encodeEnvelope,
  endStreamError,
  endStreamFlag,
  httpError,
} from './connectEnvelope'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array) => new TextDecoder().decode(b)

const endOf = (json: unknown) => encodeEnvelope(bytes(JSON.stringify(json)), endStreamFlag)

describe('Connect envelopes', () => {
  it('writes a flag byte, a big-endian length and the payload', () => {
    const env = encodeEnvelope(bytes('{"a":1}'), endStreamFlag)
    expect([...env.subarray(0, 5)]).toEqual([0x02, 0, 0, 0, 7])
    expect(text(env.subarray(5))).toBe('{"a":1}')
    const big = encodeEnvelope(new Uint8Array(0x012345))
    expect([...big.subarray(0, 5)]).toEqual([0, 0, 0x01, 0x23, 0x45])
  })

  it('reads back what it wrote, and refuses bytes that do not frame', () => {
    const body = concatBytes([
      encodeEnvelope(bytes('{}')),
      endOf({ error: { code: 'not_found', message: 'gone' } }),
    ])
    const envelopes = decodeEnvelopes(body)
    expect(envelopes.map((e) => e.flags)).toEqual([0, endStreamFlag])
    expect(JSON.parse(text(envelopes[1]?.payload ?? new Uint8Array()))).toEqual({
      error: { code: 'not_found', message: 'gone' },
    })
    expect(() => decodeEnvelopes(body.subarray(0, 3))).toThrow(/truncated envelope header at byte 0/)
    expect(() => decodeEnvelopes(body.subarray(0, 6))).toThrow(/envelope at byte 0 is cut short/)
  })

  it('splits a body that arrives in pieces cut anywhere, the same as whole', () => {
    const messages = ['a', '', 'bc'.repeat(1000), 'd'].map((m) => encodeEnvelope(bytes(m)))
    const body = concatBytes([...messages, endOf({})])
    const whole = decodeEnvelopes(body).map((e) => [e.flags, text(e.payload)])
    for (const size of [1, 2, 5, 7, 64, 1999, body.length]) {
      const splitter = new EnvelopeSplitter()
      const seen: [number, string][] = []
      for (let at = 0; at < body.length; at += size) {
        for (const e of splitter.push(body.subarray(at, at + size))) seen.push([e.flags, text(e.payload)])
      }
      splitter.end()
      expect(seen, `pieces of ${size}`).toEqual(whole)
    }
  })

  it('hands out payloads within one piece as views of it, not copies', () => {
    const piece = concatBytes([encodeEnvelope(bytes('xyz')), encodeEnvelope(bytes('w'))])
    const [first, second] = new EnvelopeSplitter().push(piece)
    expect(first?.payload.buffer).toBe(piece.buffer)
    expect(second?.payload.byteOffset).toBe(13)
  })

  it('puts an envelope cut across pieces together, and still hands out views after it', () => {
    const cut = encodeEnvelope(bytes('0123456789'))
    const splitter = new EnvelopeSplitter()
    expect(splitter.push(cut.subarray(0, 3))).toEqual([])
    expect(splitter.push(cut.subarray(3, 9))).toEqual([])
    const last = concatBytes([cut.subarray(9), encodeEnvelope(bytes('next'))])
    const [whole, next] = splitter.push(last)
    expect(text(whole?.payload ?? new Uint8Array())).toBe('0123456789')
    expect(whole?.payload.buffer).not.toBe(last.buffer)
    expect(text(next?.payload ?? new Uint8Array())).toBe('next')
    expect(next?.payload.buffer).toBe(last.buffer)
    splitter.end()
  })

  it('says where a body that stops inside an envelope stopped', () => {
    const splitter = new EnvelopeSplitter()
    splitter.push(concatBytes([encodeEnvelope(bytes('ok')), encodeEnvelope(bytes('cut')).subarray(0, 6)]))
    expect(() => splitter.end()).toThrow(/envelope at byte 7 is cut short/)
  })
})

describe('Connect errors', () => {
  it('reads the error of an end-of-stream message, with its code', () => {
    const error = endStreamError(
      bytes(JSON.stringify({ error: { code: 'not_found', message: 'process gone' } })),
    )
    expect(error?.code).toBe(Code.NotFound)
    expect(error?.rawMessage).toBe('process gone')
    expect(endStreamError(bytes('{}'))).toBeUndefined()
    expect(endStreamError(new Uint8Array())).toBeUndefined()
    expect(endStreamError(bytes('{"error":{"code":"no_such_code"}}'))?.code).toBe(Code.Unknown)
  })

  it('turns an HTTP failure into the code of its status and the message of its JSON body', async () => {
    const paused = await httpError(
      new Response(JSON.stringify({ sandboxId: 'x', message: 'The sandbox is paused', code: 502 }), {
        status: 502,
      }),
    )
    expect(paused.code).toBe(Code.Unavailable)
    expect(paused.rawMessage).toBe('HTTP 502: The sandbox is paused')
    const denied = await httpError(
      new Response('{"code":401,"message":"unauthorized access"}', { status: 401 }),
    )
    expect(denied.code).toBe(Code.Unauthenticated)
    expect((await httpError(new Response('<html>', { status: 404 }))).rawMessage).toBe('HTTP 404')
  })
})
