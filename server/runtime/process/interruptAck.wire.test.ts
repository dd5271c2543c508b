// A Ctrl-C typed by StreamInput has no answer of its own: the client learns where it flushed the
// output from the answer to an acknowledgement. One that arrives while the runtime still reads
// the terminal's termios waits for it, so the flush is learned at once, not an ack step later.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { envelope, postUnary } from '../testing/wire'

/** Holds each termios check's answer until the test lets it go. */
const termios = vi.hoisted(() => {
  let release: () => void = () => {}
  let asked: () => void = () => {}
  return {
    released: new Promise<void>((resolve) => {
      release = resolve
    }),
    asked: new Promise<void>((resolve) => {
      asked = resolve
    }),
    release: () => release(),
    ask: () => asked(),
  }
})

vi.mock('./interruptFlushes', async (importOriginal) => {
  const real = await importOriginal<typeof import('./interruptFlushes')>()
  return {
    ...real,
    interruptFlushes: async (tty: string) => {
      const answer = await real.interruptFlushes(tty)
      termios.ask()
      await termios.released
      return answer
    },
  }
})

let rt: TestRuntime
beforeAll(async () => {
  rt = await startTestRuntime()
})
afterAll(() => rt.close())

it('answers an acknowledgement that comes during the termios check of a Ctrl-C with where it flushed', async () => {
  const script = "trap '' INT; yes flood"
  const res = await fetch(`${rt.url}/process.Process/Start`, {
    method: 'POST',
    headers: {
      ...rt.auth,
      'Content-Type': 'application/connect+json',
      'X-Output-Window': String(1024 * 1024),
    },
    body: envelope(
      JSON.stringify({
        process: { cmd: 'bash', args: ['-c', script] },
        pty: { size: { cols: 80, rows: 24 } },
        tag: script,
      }),
    ),
  })
  const stream = res.headers.get('x-output-stream') as string
  // Nothing is read or acknowledged: the window fills, far more than a Ctrl-C's flush is worth.
  await new Promise((r) => setTimeout(r, 500))
  const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
  const pid = list.json.processes.find((p: { tag?: string }) => p.tag === script).pid
  const input = { process: { pid }, input: { pty: Buffer.from('\x03').toString('base64') } }
  const sent = postUnary(rt.url, '/process.Process/SendInput', input, rt.auth)
  await termios.asked
  let answered = false
  const ack = fetch(`${rt.url}/output-ack?stream=${stream}`, { method: 'POST', headers: rt.auth, body: '0' })
  void ack.then(() => {
    answered = true
  })
  await new Promise((r) => setTimeout(r, 200))
  expect(answered).toBe(false)
  termios.release()
  const [acked, inputAnswer] = await Promise.all([ack, sent])
  expect(acked.status).toBe(204)
  expect(inputAnswer.headers.get('x-output-flush')).toMatch(/^\d+$/)
  expect(acked.headers.get('x-output-flush')).toBe(inputAnswer.headers.get('x-output-flush'))
  await postUnary(
    rt.url,
    '/process.Process/SendSignal',
    { process: { pid }, signal: 'SIGNAL_SIGKILL' },
    rt.auth,
  )
  await res.body?.cancel()
})
