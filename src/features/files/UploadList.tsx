import { IconButton } from '../../ui/IconButton'
import { useExternalStore } from '../../ui/useExternalStore'
import type { UploadQueue } from './uploads'

/** Uploads in progress and just finished, each with its progress and a cancel button. */
export function UploadList({ queue }: { queue: UploadQueue }) {
  const uploads = useExternalStore(queue)
  if (uploads.length === 0) return null
  const finished = uploads.some((u) => u.state !== 'queued' && u.state !== 'sending')
  return (
    <section className="uploads" aria-label="Uploads">
      <ul>
        {uploads.map((u) => (
          <li key={u.id} className={`upload upload-${u.state}`}>
            <span className="upload-name" title={u.path}>
              {u.path.slice(u.path.lastIndexOf('/') + 1)}
            </span>
            {(u.state === 'sending' || u.state === 'queued') && (
              <>
                <progress
                  max={u.total || 1}
                  value={u.sent}
                  aria-label={`Uploading ${u.path.slice(u.path.lastIndexOf('/') + 1)}`}
                />
                <IconButton icon="close" label={`Cancel ${u.path}`} onClick={() => queue.cancel(u.id)} />
              </>
            )}
            {u.state === 'done' && <span>uploaded</span>}
            {u.state === 'cancelled' && <span>cancelled</span>}
            {u.state === 'failed' && <span role="alert">failed: {u.error}</span>}
          </li>
        ))}
      </ul>
      {finished && (
        <button type="button" onClick={() => queue.clearFinished()}>
          Clear finished
        </button>
      )}
    </section>
  )
}
