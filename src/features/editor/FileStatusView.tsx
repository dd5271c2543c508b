import { displayName } from '../../ui/displayName'
import type { EditorManager } from './EditorManager'
import { downloadOnlyBytes, formatSize } from './fileLimits'
import type { EditorDocument } from './OpenDocument'

/** In place of the text, for a file that is loading, binary, too big, or could not be opened. */
export function FileStatusView({ doc, manager }: { doc: EditorDocument; manager: EditorManager }) {
  const name = displayName(doc.name)
  const size = formatSize(doc.size ?? 0)
  switch (doc.view) {
    case 'loading':
      return (
        <div className="empty-state" role="status">
          <p>Opening {name}…</p>
        </div>
      )
    case 'binary':
      return (
        <div className="empty-state file-status">
          <h2>{name}</h2>
          <p>
            A binary file of <span data-testid="file-size">{size}</span>: it is not opened as text.
          </p>
          <button type="button" className="primary" onClick={() => void manager.download(doc.id)}>
            Download {name}
          </button>
        </div>
      )
    case 'download-only':
      return (
        <div className="empty-state file-status">
          <h2>{name}</h2>
          <p>
            This file is <span data-testid="file-size">{size}</span>. Files over{' '}
            {formatSize(downloadOnlyBytes)} are offered for download only.
          </p>
          <button type="button" className="primary" onClick={() => void manager.download(doc.id)}>
            Download {name}
          </button>
        </div>
      )
    case 'error':
      return (
        <div className="empty-state file-status">
          <div role="alert">
            <h2>{name} could not be opened</h2>
            <p>{doc.error}</p>
          </div>
          <div className="dialog-actions">
            <button type="button" onClick={() => void manager.retry(doc.id)}>
              Try again
            </button>
            <button type="button" onClick={() => manager.requestClose(doc.id)}>
              Close
            </button>
          </div>
        </div>
      )
    case 'text':
      return null
  }
}
