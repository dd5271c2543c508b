import { afterEach, describe, expect, it } from 'vitest'
import { CommandError, type CommandHandlers, respond } from './embedHost'

const handlers: CommandHandlers = {
  openFile: async () => null,
  readFile: async ({ path }) => ({ content: `text of ${path}` }),
  writeFile: async () => {
    throw new CommandError('denied', 'this embed is read-only')
  },
  runCommand: async () => {
    throw new Error('spawn failed')
  },
  setTheme: async () => null,
  setLayout: async () => null,
  openPreview: async () => null,
  focus: async () => null,
}

let channel: MessageChannel
afterEach(() => {
  channel.port1.close()
  channel.port2.close()
})

/** Sends one message through `respond` and resolves with what comes back (or undefined). */
async function answer(message: unknown): Promise<unknown> {
  channel = new MessageChannel()
  const reply = new Promise((resolve) => {
    channel.port2.onmessage = (e) => resolve(e.data)
    setTimeout(() => resolve(undefined), 200)
  })
  await respond(channel.port1, handlers, message)
  return reply
}

describe('the embed host answering a parent', () => {
  it('runs a valid request and answers with its id', async () => {
    expect(await answer({ kind: 'request', id: 4, method: 'readFile', params: { path: 'a.txt' } })).toEqual({
      kind: 'response',
      id: 4,
      ok: true,
      result: { content: 'text of a.txt' },
    })
  })

  it('refuses wrong, missing and unknown parameters, naming the field', async () => {
    expect(await answer({ kind: 'request', id: 1, method: 'readFile', params: { path: 7 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid', message: expect.stringMatching(/^readFile: path: /) },
    })
    expect(await answer({ kind: 'request', id: 2, method: 'setTheme', params: {} })).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    })
    expect(
      await answer({ kind: 'request', id: 3, method: 'openFile', params: { path: 'a', evil: true } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid' } })
  })

  it('refuses unknown methods, including ones inherited from Object', async () => {
    for (const method of ['eval', 'constructor', '__proto__', 'toString'])
      expect(await answer({ kind: 'request', id: 9, method, params: {} })).toMatchObject({
        id: 9,
        ok: false,
        error: { code: 'unknown-method' },
      })
  })

  it("passes a handler's refusal on with its code, and any other failure as 'failed'", async () => {
    expect(
      await answer({ kind: 'request', id: 5, method: 'writeFile', params: { path: 'a', content: '' } }),
    ).toMatchObject({ ok: false, error: { code: 'denied', message: 'this embed is read-only' } })
    expect(
      await answer({ kind: 'request', id: 6, method: 'runCommand', params: { command: 'ls' } }),
    ).toMatchObject({ ok: false, error: { code: 'failed', message: 'spawn failed' } })
  })

  it('ignores what is not a request (nothing to answer)', async () => {
    for (const message of [null, 'hello', { kind: 'event' }, { kind: 'request', id: -1, method: 'focus' }])
      expect(await answer(message)).toBeUndefined()
  })
})
