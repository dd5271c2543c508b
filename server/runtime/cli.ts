// `npm run runtime -- --port N [--access-token T]`: one envd-compatible runtime, alone.
import { createInterface } from 'node:readline'
import { startIdleCollector } from './idleCollector'
import { parseRuntimeArgs, type StdinLineReader, usage } from './options'
import { startRuntime } from './server'

/** Reads stdin a line at a time, only when asked, so a runtime that needs none never touches it. */
function stdinLines(): { readLine: StdinLineReader; close(): void } {
  let lines: ReturnType<typeof createInterface> | undefined
  let iterator: AsyncIterator<string> | undefined
  return {
    readLine: async () => {
      lines ??= createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })
      iterator ??= lines[Symbol.asyncIterator]()
      const next = await iterator.next()
      if (next.done) throw new Error('stdin ended before the expected line')
      return next.value
    },
    close: () => {
      if (!lines) return
      lines.close()
      // The parent's end of the pipe must not keep the runtime's event loop alive.
      process.stdin.destroy()
    },
  }
}

const stdin = stdinLines()
let options: Awaited<ReturnType<typeof parseRuntimeArgs>>
try {
  options = await parseRuntimeArgs(process.argv.slice(2), process.env, stdin.readLine)
} catch (err) {
  console.error(`runtime: ${err instanceof Error ? err.message : String(err)}\n\n${usage}`)
  process.exit(2)
} finally {
  stdin.close()
}
if (options === 'help') {
  console.log(usage)
  process.exit(0)
}

const runtime = await startRuntime(options)
// Where Node gives `gc()` (the launcher's flags do, server/nodeFlags.ts).
const gc = (globalThis as { gc?: () => void }).gc
const stopCollecting = gc ? startIdleCollector({ gc }) : () => {}
console.log(
  `runtime: listening on ${runtime.url}${options.socket ? ` and unix:${options.socket}` : ''} ` +
    `as user '${options.defaultUser}', ` +
    `${options.accessToken ? 'access token required' : 'no access token (anyone on this address may call it)'}`,
)
const stop = async (signal: string) => {
  console.log(`runtime: ${signal}, shutting down`)
  stopCollecting()
  await runtime.close()
  process.exit(0)
}
process.once('SIGINT', () => void stop('SIGINT'))
process.once('SIGTERM', () => void stop('SIGTERM'))
