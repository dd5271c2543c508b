import { useEffect, useMemo, useState } from 'react'
import type { EmbedConfig } from '../contract/ideApiTypes'
import { localStack } from '../sandbox/localStack'
import { type Theme, useThemeStore } from '../ui/themeStore'
import { useSandboxSession } from '../workbench/useSandboxSession'
import { usePanelCode } from '../workbench/WorkbenchLayout'
import { EmbedWorkbench } from './EmbedWorkbench'
import { type EmbedConnection, EmbedHost } from './embedHost'
import { type EmbedOptions, parseEmbedOptions } from './embedOptions'

/** Where the IDE is served without the local stack: the allowlist comes from the build. */
function buildConfig(): EmbedConfig {
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)
  return {
    allowedOrigins: list(import.meta.env.VITE_EMBED_ALLOWED_ORIGINS),
    trustedOrigins: list(import.meta.env.VITE_EMBED_TRUSTED_ORIGINS),
  }
}

async function embedConfig(): Promise<EmbedConfig> {
  try {
    return await localStack.embedPolicy()
  } catch {
    return buildConfig()
  }
}

type Phase =
  | { kind: 'waiting' }
  | { kind: 'connected'; connection: EmbedConnection; host: EmbedHost; trusted: boolean }
  | { kind: 'error'; message: string }

/** /embed: waits for the parent's handshake, then shows the workbench on the sandbox it names. */
export function EmbedPage({ theme }: { theme: Theme }) {
  const options = useMemo(() => parseEmbedOptions(location.search), [])
  const [phase, setPhase] = useState<Phase>(() =>
    'error' in options
      ? { kind: 'error', message: `This embed link is not valid: ${options.error}.` }
      : window.parent === window
        ? { kind: 'error', message: 'This page shows the IDE inside another page: open it in an iframe.' }
        : { kind: 'waiting' },
  )
  useEffect(() => {
    if ('error' in options || window.parent === window) return
    if (options.theme) useThemeStore.getState().setChoice(options.theme)
    let host: EmbedHost | undefined
    let disposed = false
    void embedConfig().then(async (config) => {
      if (disposed) return
      host = new EmbedHost(new Set(config.allowedOrigins), (reason) =>
        console.warn(`embed: ignored ${reason}`),
      )
      const connection = await host.waitForParent()
      if (disposed || !host) return
      setPhase({
        kind: 'connected',
        connection,
        host,
        trusted: config.trustedOrigins.includes(connection.origin),
      })
    })
    return () => {
      disposed = true
      host?.dispose()
    }
  }, [options])

  if (phase.kind === 'error') return <EmbedMessage text={phase.message} role="alert" />
  if (phase.kind === 'waiting')
    return <EmbedMessage text="Waiting for the page to connect a sandbox…" role="status" />
  return <ConnectedEmbed {...phase} options={options as EmbedOptions} theme={theme} />
}

function ConnectedEmbed({
  connection,
  host,
  trusted,
  options,
  theme,
}: {
  connection: EmbedConnection
  host: EmbedHost
  trusted: boolean
  options: EmbedOptions
  theme: Theme
}) {
  const session = useSandboxSession({
    source: 'runtime',
    runtimeUrl: connection.runtimeUrl,
    accessToken: connection.accessToken ?? '',
  })
  usePanelCode({ explorer: options.panels.includes('files'), editor: options.panels.includes('editor') })
  if (!session) return <EmbedMessage text="Connecting…" role="status" />
  return (
    <EmbedWorkbench
      session={session}
      host={host}
      options={options}
      trusted={trusted}
      parentOrigin={connection.origin}
      theme={theme}
    />
  )
}

function EmbedMessage({ text, role }: { text: string; role: 'status' | 'alert' }) {
  return (
    <main className="splash" aria-label="Embedded IDE">
      <p role={role}>{text}</p>
    </main>
  )
}
