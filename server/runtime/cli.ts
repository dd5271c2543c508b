// `npm run runtime -- --port N [--access-token T]`: one envd-compatible runtime, alone.
import { parseRuntimeArgs, usage } from './options'
import { startRuntime } from './server'

let options: ReturnType<typeof parseRuntimeArgs>
try {
  options = parseRuntimeArgs(process.argv.slice(2))
} catch (err) {
  console.error(`runtime: ${err instanceof Error ? err.message : String(err)}\n\n${usage}`)
  process.exit(2)
}
if (options === 'help') {
  console.log(usage)
  process.exit(0)
}

const runtime = await startRuntime(options)
console.log(
  `runtime: listening on ${runtime.url} as user '${options.defaultUser}', ` +
    `${options.accessToken ? 'access token required' : 'no access token (anyone on this address may call it)'}`,
)
const stop = async (signal: string) => {
  console.log(`runtime: ${signal}, shutting down`)
  await runtime.close()
  process.exit(0)
}
process.once('SIGINT', () => void stop('SIGINT'))
process.once('SIGTERM', () => void stop('SIGTERM'))
