// process.Process through the generated Connect client, as a Node client (and the IDE) uses it.
import { create } from '@bufbuild/protobuf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StartResponse, StreamInputRequestSchema } from '../../../src/gen/process_pb'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'

const decoder = new TextDecoder()

/** Collects a stream's output as text and its end event. */
async function collect(stream: AsyncIterable<StartResponse>) {
  let output = ''
  let pid = 0
  let end: { exitCode: number; status: string } | undefined
  for await (const { event } of stream) {
    const e = event?.event
    if (e?.case === 'start') pid = e.value.pid
    if (e?.case === 'data') output += decoder.decode(e.value.output.value)
    if (e?.case === 'end') end = e.value
  }
  return { output, pid, end }
}

describe('process.Process through the generated client', () => {
  let rt: TestRuntime
  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  it('never loses the end of a terminal’s output, even with many terminals ending at once', async () => {
    const runs = await Promise.all(
      Array.from({ length: 12 }, () =>
        collect(
          rt.proc.start({
            process: { cmd: 'sh', args: ['-c', 'seq 1 20000; exit 3'] },
            pty: { size: { cols: 80, rows: 24 } },
          }),
        ),
      ),
    )
    for (const run of runs) {
      expect(run.output.trimEnd().split('\r\n').at(-1)).toBe('20000')
      expect(run.output.length).toBe(128894) // seq's 108894 bytes, with each \n sent as \r\n
      expect(run.end?.exitCode).toBe(3)
    }
  })

  it('feeds a process through a real client stream (StreamInput), in order', async () => {
    const controller = new AbortController()
    const started = rt.proc.start({ process: { cmd: 'cat' } }, { signal: controller.signal })
    const iterator = started[Symbol.asyncIterator]()
    const first = await iterator.next()
    const pid = first.value.event.event.value.pid as number
    async function* input() {
      yield create(StreamInputRequestSchema, {
        event: { case: 'start', value: { process: { selector: { case: 'pid', value: pid } } } },
      })
      for (let i = 0; i < 50; i++) {
        yield create(StreamInputRequestSchema, {
          event: {
            case: 'data',
            value: { input: { input: { case: 'stdin', value: new TextEncoder().encode(`${i},`) } } },
          },
        })
      }
    }
    await rt.proc.streamInput(input())
    await rt.proc.closeStdin({ process: { selector: { case: 'pid', value: pid } } })
    let output = ''
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
      const e = r.value.event?.event
      if (e?.case === 'data') output += decoder.decode(e.value.output.value)
    }
    expect(output).toBe(Array.from({ length: 50 }, (_, i) => `${i},`).join(''))
  })

  it('attaches a second stream with Connect and sees live output of a shell', async () => {
    const started = rt.proc.start(
      {
        process: { cmd: 'bash', args: ['--norc', '--noprofile', '-i'] },
        pty: { size: { cols: 80, rows: 24 } },
        tag: 'shell',
      },
      {},
    )
    const it1 = started[Symbol.asyncIterator]()
    const pid = (await it1.next()).value.event.event.value.pid as number
    const attached = rt.proc
      .connect({ process: { selector: { case: 'tag', value: 'shell' } } })
      [Symbol.asyncIterator]()
    expect((await attached.next()).value.event.event).toEqual(expect.objectContaining({ case: 'start' }))
    await rt.proc.sendInput({
      process: { selector: { case: 'pid', value: pid } },
      input: { input: { case: 'pty', value: new TextEncoder().encode('echo $((6*7))\n') } },
    })
    let seen = ''
    while (!seen.includes('42')) {
      const e = (await attached.next()).value?.event?.event
      if (e?.case === 'data') seen += decoder.decode(e.value.output.value)
    }
    expect(seen).toContain('42')
    await rt.proc.sendSignal({ process: { selector: { case: 'pid', value: pid } }, signal: 9 })
    await attached.return?.()
    await it1.return?.()
  })
})
