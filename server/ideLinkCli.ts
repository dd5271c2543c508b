// `npm run ide-link`: prints the address that opens the IDE signed in, for a stack started with
// the same options; `--rotate` first makes a new token, which signs every browser out at once.
import { mkdirSync } from 'node:fs'
import { parsePlatformConfig, platformUsage } from './config'
import { ideLink } from './platform/access/ideLink'
import { IdeToken } from './platform/access/ideToken'

const usage = `Usage: npm run ide-link -- [--rotate] [npm start's options]

Prints the address that opens the IDE of the stack that \`npm start\` runs with the same options
(--port, --host, --data, --tls), signed in. Anyone with it can use every sandbox of the stack.

  --rotate   make a new token first: the old link, and every browser signed in with it, stop
             working at once (a running stack reads the new one on its next request)
`

const args = process.argv.slice(2)
const rotate = args.includes('--rotate')
let config: ReturnType<typeof parsePlatformConfig>
try {
  config = parsePlatformConfig(args.filter((a) => a !== '--rotate'))
} catch (err) {
  console.error(`npm run ide-link: ${err instanceof Error ? err.message : String(err)}\n\n${usage}`)
  process.exit(2)
}
if (config === 'help') {
  console.log(`${usage}\n${platformUsage}`)
  process.exit(0)
}
mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
const token = new IdeToken(config.dataDir)
const value = rotate ? token.rotate() : token.current()
const host = config.host.includes(':') ? `[${config.host}]` : config.host
console.log(ideLink(`${config.tls ? 'https' : 'http'}://${host}:${config.port}`, value))
if (rotate)
  console.error('npm run ide-link: made a new token; links and sign-ins with the old one no longer work')
