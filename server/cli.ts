// `npm start`: the local stack. The E2B-compatible platform, isolated sandboxes, and the IDE.
import { statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defaultSandboxLimits, type PlatformConfig, parsePlatformConfig, platformUsage } from './config'
import { ideLink } from './platform/access/ideLink'
import { ensureDefaultSandbox } from './platform/defaultSandbox'
import { type RunningPlatform, startPlatform } from './platform/platformServer'
import { DamagedRecordError } from './platform/recordFile'
import { DataFolderInUseError } from './platform/stackLock'

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..')
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)

/** The command line's configuration; exits with the usage when it is wrong or asks for help. */
function readConfig(): PlatformConfig {
  let config: ReturnType<typeof parsePlatformConfig>
  try {
    config = parsePlatformConfig(process.argv.slice(2))
  } catch (err) {
    console.error(`npm start: ${err instanceof Error ? err.message : String(err)}\n\n${platformUsage}`)
    process.exit(2)
  }
  if (config === 'help') {
    console.log(platformUsage)
    process.exit(0)
  }
  if (config.templatesDir && !statSync(config.templatesDir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`npm start: --templates ${config.templatesDir} is not a folder\n\n${platformUsage}`)
    process.exit(2)
  }
  return config
}
const config = readConfig()

/** Set once a signal (or a failed start) asks the stack to stop; later signals only say it is under way. */
let stopping = false
let stoppingSince = 0
let starting: Promise<RunningPlatform> | undefined

/**
 * Stops the stack once, whatever asks, and exits when every sandbox is stopped and unmounted. A
 * second Ctrl-C (and npm's copy of the first, which it passes on) must not cut that short: the
 * unmounts would be left for the next start to clean up.
 */
function stop(why: string, code = 0): void {
  if (stopping) {
    // npm passes the terminal's Ctrl-C on to the stack at once: that copy needs no answer.
    if (Date.now() - stoppingSince > 500)
      log(`${why}: still stopping (unmounting sandboxes' file systems); it ends by itself`)
    return
  }
  stopping = true
  stoppingSince = Date.now()
  log(`${why}: stopping sandboxes`)
  void (async () => {
    try {
      // A stop during the start waits for it, then undoes it.
      const platform = await starting?.catch(() => undefined)
      await platform?.close()
      log('stopped')
    } catch (err) {
      console.error(`npm start: stopping failed: ${err instanceof Error ? err.message : String(err)}`)
      code = 1
    }
    process.exit(code)
  })()
}
// From the very start: sandboxes are mounted while it starts too. SIGHUP: the terminal was closed.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal))

async function main(): Promise<void> {
  starting = startPlatform(config, { projectRoot, log })
  let platform: RunningPlatform
  try {
    platform = await starting
  } catch (err) {
    if (stopping) return
    // The user's to mend or decide: said in a line, no stack trace. Nothing is left mounted.
    if (err instanceof DamagedRecordError)
      console.error(
        `npm start: ${err.message}. Nothing was changed: mend it, or move it away to start without what it holds.`,
      )
    else if (err instanceof DataFolderInUseError) console.error(`npm start: ${err.message}`)
    else throw err
    process.exit(1)
  }
  if (stopping) return
  const relativeData = relative(process.cwd(), config.dataDir)
  const shownData = relativeData.startsWith('..') ? config.dataDir : relativeData || '.'
  const networks = {
    own: 'a network of its own each (outbound through slirp4netns)',
    'own-offline': "a network of its own each, NO OUTBOUND ACCESS (install Debian's 'slirp4netns')",
    host: "the host's network",
  }
  const isolation =
    platform.launcher.isolation === 'bubblewrap'
      ? `isolated with bubblewrap, ${networks[platform.launcher.network]}, paused with ${platform.launcher.freezer}`
      : `NOT ISOLATED: ${platform.launcher.warning ?? 'bubblewrap is unavailable'}`
  const systems = {
    'own-copy': "its own copy of the host's /usr, /etc and package state (changes stay in the sandbox)",
    'host-read-only': `the host's /usr and /etc, read-only${platform.launcher.systemWarning ? ` (${platform.launcher.systemWarning})` : ''}`,
    host: "the host's own, as this user",
  }
  const rootLine =
    platform.launcher.root === 'sudo'
      ? "; root inside, and `user` has passwordless sudo (root is host uid 100000, not this machine's root)"
      : platform.launcher.rootWarning
        ? `; ${platform.launcher.rootWarning}`
        : ''
  const { limits } = platform.launcher
  const sandboxLimits = { ...defaultSandboxLimits, ...config.sandboxLimits }
  const limitsLine =
    limits.kind === 'none'
      ? limits.warning
      : `${sandboxLimits.cpus} CPUs, ${sandboxLimits.memoryMB} MB, ${sandboxLimits.pids} processes each (${limits.kind}: ${limits.enforced.join(', ')}${limits.warning ? `; ${limits.warning}` : ''})`
  const diskLine =
    platform.disks.kind === 'none'
      ? platform.disks.warning
      : `a ${sandboxLimits.diskMB} MB home each (its own ext4 file system, sparse on the host)`
  const defaultId = config.defaultSandbox
    ? await ensureDefaultSandbox(platform.manager, {
        dataDir: config.dataDir,
        timeoutSeconds: config.defaultSandboxTimeout,
      })
    : undefined
  if (stopping) return
  const token = platform.ideToken.current()
  const sandboxLine = defaultId ? `default sandbox ${defaultId}` : 'no default sandbox'
  // A self-signed certificate: the browser asks once per host name (the IDE's, and each sandbox's).
  const tlsLine = platform.certificate
    ? `\n  HTTPS:         HTTP/2, self-signed certificate ${shownData}/tls/cert.pem; accept it for the IDE\n                 and once per sandbox: https://49983-${defaultId ?? '{id}'}.localhost:${platform.port}/health`
    : ''
  console.log(`
Sandbox IDE is running.

  Open the IDE:  ${ideLink(platform.url, token)}
                 (the link signs this browser in; keep it to yourself: \`npm run ide-link\` prints it again)
  Embed demo:    ${ideLink(platform.url.replace(/\/\/[^:/]+/, '//embed-demo.localhost'), token)}
                 (the IDE inside another site's page)
  Sandboxes:     ${sandboxLine}; ${isolation}
  System:        ${systems[platform.launcher.system]}${rootLine}
  Limits:        ${limitsLine}
                 ${diskLine}
  Templates:     ${(await platform.templates.ids()).join(', ')}
  E2B API:       E2B_API_URL=${platform.url} E2B_SANDBOX_URL=${platform.url}
  API key:       ${platform.apiKeyGenerated ? `${platform.apiKey}  (new; kept in ${shownData}/api-key)` : `in ${config.apiKey ? 'SANDBOX_API_KEY / --api-key' : `${shownData}/api-key`}`}
  Data folder:   ${shownData}${tlsLine}

Ctrl-C stops everything; sandbox files are kept.
`)
}

main().catch((err: unknown) => {
  if (stopping) return
  console.error(`npm start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  stop('the start failed', 1)
})
