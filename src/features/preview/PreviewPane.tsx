import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { PortWatch } from '../../sandbox/portWatch'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { IconButton } from '../../ui/IconButton'
import { useExternalStore } from '../../ui/useExternalStore'
import type { PreviewModel } from './PreviewModel'

/**
 * A port of the sandbox beside the code: back and forward through the addresses it was given, an
 * address bar for the path, reload, open in a tab of its own, and a clear state while the port is closed (it reloads by itself once it opens). The
 * frame is another origin than the IDE's and sandboxed besides: the app gets its own storage,
 * never the IDE's page, cookies or tokens, and its links cannot navigate the IDE away.
 */
export function PreviewPane({
  session,
  model,
  watch,
}: {
  session: SandboxSession
  model: PreviewModel
  /** The sandbox's ports: a closed one is waited for, and the page reloads once it opens. */
  watch: PortWatch
}) {
  const target = useExternalStore(model)
  const running = useExternalStore(session).state.kind === 'running'
  const seen = useExternalStore(watch)
  const ports = running && target ? seen : undefined
  const open = target && ports ? ports.some((p) => p.port === target.port) : undefined
  const [path, setPath] = useState(target?.path ?? '/')
  const wasOpen = useRef(open)
  useEffect(() => setPath(target?.path ?? '/'), [target?.path])
  // While the port is closed, it is looked for often: the page shows as soon as it opens.
  useEffect(() => (open === false ? watch.waitForPort() : undefined), [open, watch])
  // The server came back (restarted after an edit): show its page again.
  useEffect(() => {
    if (open && wasOpen.current === false) model.reload()
    wasOpen.current = open
  }, [open, model])
  if (!target) return null
  const url = session.portUrl(target.port, target.path)
  const go = (event: FormEvent) => {
    event.preventDefault()
    model.open(target.port, path)
  }
  return (
    <section className="preview" aria-label={`Preview of port ${target.port}`}>
      <form className="preview-bar" onSubmit={go}>
        <IconButton
          icon="arrow-left"
          label="Back"
          framed
          disabled={!target.canGoBack}
          onClick={() => model.back()}
        />
        <IconButton
          icon="arrow-right"
          label="Forward"
          framed
          disabled={!target.canGoForward}
          onClick={() => model.forward()}
        />
        <span className="port-number">:{target.port}</span>
        <input aria-label="Path" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
        <button type="button" onClick={() => model.reload()}>
          Reload
        </button>
        {url && (
          <a href={url} target="_blank" rel="noopener noreferrer">
            Open in new tab
          </a>
        )}
        <IconButton icon="close" label="Close preview" framed onClick={() => model.close()} />
      </form>
      {!url ? (
        <p className="panel-message">
          Its ports have no address from this page, which was opened by a bare address or a runtime URL. They
          get names under a DNS name of the stack: <code>npm start -- --domain NAME</code>.
        </p>
      ) : open === false ? (
        <p className="panel-message" role="status">
          Port {target.port} is closed: nothing listens on it now. The preview loads by itself once it opens.
        </p>
      ) : (
        <iframe
          key={target.generation}
          title={`Port ${target.port}`}
          src={url}
          sandbox="allow-scripts allow-forms allow-same-origin allow-popups allow-modals allow-downloads"
          referrerPolicy="no-referrer"
        />
      )}
    </section>
  )
}
