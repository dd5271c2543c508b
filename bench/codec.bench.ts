import { create, fromJsonString, toJsonString } from '@bufbuild/protobuf'
import { ProcessEventSchema } from '../src/gen/process_pb'
import { type Figure, median, sample } from './table'

/** Connect+JSON cost of the terminal's hot path: one 16 KiB PTY data event, both ways. */
export async function codecFigures(): Promise<Figure[]> {
  const chunk = new Uint8Array(16 * 1024).map((_, i) => 32 + (i % 90))
  const event = create(ProcessEventSchema, {
    event: { case: 'data', value: { output: { case: 'pty', value: chunk } } },
  })
  const json = toJsonString(ProcessEventSchema, event)
  const perRun = 200
  const mbps = (ms: number) => (chunk.length * perRun) / 1e6 / (ms / 1e3)
  const encode = await sample(9, () => {
    const t = performance.now()
    for (let i = 0; i < perRun; i++) toJsonString(ProcessEventSchema, event)
    return mbps(performance.now() - t)
  })
  const decode = await sample(9, () => {
    const t = performance.now()
    for (let i = 0; i < perRun; i++) fromJsonString(ProcessEventSchema, json)
    return mbps(performance.now() - t)
  })
  return [
    {
      name: 'encode PTY data event to JSON (16 KiB)',
      median: median(encode),
      unit: 'MB/s',
      runs: encode.length,
    },
    {
      name: 'decode PTY data event from JSON (16 KiB)',
      median: median(decode),
      unit: 'MB/s',
      runs: decode.length,
    },
  ]
}
