import { spawnSync } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@connectrpc/connect'
import { createConnectTransport } from '@connectrpc/connect-node'
import { envelope } from '../server/runtime/testing/wire'
import { Process } from '../src/gen/process_pb'
import { startBenchRuntime } from './runtimeProcess'
import { type Figure, median, percentile, sample } from './table'

const mib = 1024 * 1024

/** Runtime figures (issue 3): ListDir of 100k entries, Start to first byte, PTY throughput, idle PTY memory. */
export async function runtimeFigures(): Promise<Figure[]> {
  const rt = await startBenchRuntime()
  const figures: Figure[] = []
  try {
    // Memory of the runtime with 50 idle PTYs (bash shells waiting at their prompt).
    // Measured first, on a fresh runtime, so nothing measured before inflates it.
    const proc = createClient(Process, createConnectTransport({ baseUrl: rt.url, httpVersion: '1.1' }))
    const before = rt.rss()
    const controller = new AbortController()
    setMaxListeners(0, controller.signal)
    const shells = Array.from({ length: 50 }, () =>
      proc
        .start(
          { process: { cmd: 'bash', args: ['--norc', '-i'] }, pty: { size: { cols: 80, rows: 24 } } },
          { headers: rt.headers, signal: controller.signal },
        )
        [Symbol.asyncIterator](),
    )
    await Promise.all(shells.map((s) => s.next()))
    await new Promise((r) => setTimeout(r, 1000))
    const after = rt.rss()
    figures.push({
      name: 'Runtime memory with 50 idle PTYs',
      median: after / mib,
      unit: 'MiB RSS',
      runs: 1,
      note: `${((after - before) / 50 / 1024).toFixed(0)} KiB per PTY over ${(before / mib).toFixed(0)} MiB idle`,
    })
    // Idle shells should cost nothing: nobody types, nothing prints.
    const idleMs = 10_000
    const cpuBefore = rt.cpuMs()
    await new Promise((r) => setTimeout(r, idleMs))
    figures.push({
      name: 'Runtime CPU with 50 idle PTYs',
      median: ((rt.cpuMs() - cpuBefore) / idleMs) * 100,
      unit: '% CPU',
      runs: 1,
      note: `over ${idleMs / 1000} s; a terminal's exit is seen by SIGCHLD, not by polling`,
    })
    controller.abort()

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${rt.url}${path}`, {
        method: 'POST',
        headers: { ...rt.headers, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })

    // Start to the first output byte of `echo`, against spawning `echo` directly in this process.
    const firstByte = await sample(20, async () => {
      const t = performance.now()
      const res = await fetch(`${rt.url}/process.Process/Start`, {
        method: 'POST',
        headers: { ...rt.headers, 'Content-Type': 'application/connect+json' },
        body: envelope(JSON.stringify({ process: { cmd: 'echo', args: ['hi'] } })),
      })
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      let seen = ''
      while (!seen.includes('"data"')) {
        const { value, done } = await reader.read()
        if (done) throw new Error('stream ended before output')
        seen += new TextDecoder().decode(value)
      }
      const ms = performance.now() - t
      await reader.cancel()
      return ms
    })
    const direct = await sample(20, () => {
      const t = performance.now()
      spawnSync('echo', ['hi'])
      return performance.now() - t
    })
    // A PTY command's start to its end event: its exit seen, its output drained.
    const toEnd = await sample(20, async () => {
      const t = performance.now()
      const res = await fetch(`${rt.url}/process.Process/Start`, {
        method: 'POST',
        headers: { ...rt.headers, 'Content-Type': 'application/connect+json' },
        body: envelope(JSON.stringify({ process: { cmd: 'true' }, pty: { size: { cols: 80, rows: 24 } } })),
      })
      const text = await res.text()
      if (!text.includes('"end"')) throw new Error(`no end event: ${text.slice(0, 200)}`)
      return performance.now() - t
    })
    const trueDirect = await sample(20, () => {
      const t = performance.now()
      spawnSync('true')
      return performance.now() - t
    })
    figures.push({
      name: 'PTY command start to its end event (true)',
      median: median(toEnd),
      unit: 'ms',
      runs: toEnd.length,
      note: `p95 ${percentile(toEnd, 95).toFixed(1)} ms; spawnSync('true') here: ${median(trueDirect).toFixed(1)} ms`,
    })
    figures.push({
      name: 'Start to first output byte (echo)',
      median: median(firstByte),
      unit: 'ms',
      runs: firstByte.length,
      note: `spawnSync('echo') here: ${median(direct).toFixed(1)} ms`,
    })

    // PTY output throughput for 64 MiB of text to a Node client, in both Connect encodings,
    // against the same command writing to /dev/null in the same run.
    const produce = `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${64 * mib}`
    const devNull = median(
      await sample(3, () => {
        const t = performance.now()
        spawnSync('sh', ['-c', `${produce} > /dev/null`])
        return (64 * mib) / 1e6 / ((performance.now() - t) / 1000)
      }),
    )
    for (const binary of [false, true]) {
      const client = createClient(
        Process,
        createConnectTransport({ baseUrl: rt.url, httpVersion: '1.1', useBinaryFormat: binary }),
      )
      const throughput = await sample(3, async () => {
        const t = performance.now()
        let bytes = 0
        const stream = client.start(
          { process: { cmd: 'sh', args: ['-c', produce] }, pty: { size: { cols: 200, rows: 50 } } },
          { headers: rt.headers },
        )
        for await (const { event } of stream) {
          if (event?.event.case === 'data') bytes += event.event.value.output.value?.length ?? 0
        }
        if (bytes < 64 * mib) throw new Error(`received ${bytes} of ${64 * mib} bytes`)
        return bytes / 1e6 / ((performance.now() - t) / 1000)
      })
      figures.push({
        name: `PTY output to a Node client, 64 MiB (${binary ? 'connect+proto' : 'connect+json'})`,
        median: median(throughput),
        unit: 'MB/s',
        runs: throughput.length,
        note: `to /dev/null: ${devNull.toFixed(0)} MB/s; ratio ${(median(throughput) / devNull).toFixed(3)}`,
      })
    }

    // ListDir of a folder with 100,000 entries, over HTTP, as the IDE calls it (JSON).
    const big = join(rt.home, 'big')
    mkdirSync(big)
    for (let i = 0; i < 100_000; i++) writeFileSync(join(big, `file-${i}.txt`), '')
    const list = await sample(5, async () => {
      const t = performance.now()
      const res = await post('/filesystem.Filesystem/ListDir', { path: big, depth: 1 })
      const body = (await res.json()) as { entries?: unknown[] }
      if (body.entries?.length !== 100_000)
        throw new Error(`ListDir returned ${body.entries?.length} entries`)
      return performance.now() - t
    })
    figures.push({
      name: 'ListDir, 100,000 entries over HTTP',
      median: median(list),
      unit: 'ms',
      runs: list.length,
    })
  } finally {
    await rt.stop()
  }
  return figures
}
