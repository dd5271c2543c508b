import { useQuery } from '@tanstack/react-query'
import { FileType } from '../../gen/filesystem_pb'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { useExternalStore } from '../../ui/useExternalStore'

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/** The sandbox's home folder: folders first, then files, in natural order. */
export function ExplorerPanel({ session }: { session: SandboxSession }) {
  const snap = useExternalStore(session)
  const running = snap.state.kind === 'running'
  const listing = useQuery({
    queryKey: ['listDir', snap.sandboxId ?? snap.runtimeUrl, ''],
    enabled: running && !!session.clients,
    queryFn: async () => {
      const clients = session.clients
      if (!clients) throw new Error('not connected')
      const { entries } = await clients.filesystem.listDir({ path: '', depth: 1 })
      return [...entries].sort((a, b) => {
        const aDir = a.type === FileType.DIRECTORY
        const bDir = b.type === FileType.DIRECTORY
        return aDir === bDir ? collator.compare(a.name, b.name) : aDir ? -1 : 1
      })
    },
  })
  return (
    <nav className="panel explorer" aria-label="Explorer">
      <div className="panel-header">
        <h2 className="panel-title">Files</h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Refresh files"
          onClick={() => listing.refetch()}
        >
          ⟳
        </button>
      </div>
      {listing.isError && (
        <p className="panel-message" role="alert">
          {listing.error.message}
        </p>
      )}
      <ul className="file-list" aria-label="Home folder">
        {listing.data?.map((entry) => (
          <li key={entry.name} className="file-row">
            <span aria-hidden="true">{entry.type === FileType.DIRECTORY ? '📁' : '📄'}</span>
            <span>{entry.name}</span>
          </li>
        ))}
      </ul>
      {listing.data?.length === 0 && <p className="panel-message">The home folder is empty.</p>}
    </nav>
  )
}
