import { displayName } from '../../ui/displayName'
import type { EditorManager } from './EditorManager'
import { formatSize } from './fileLimits'
import type { EditorDocument } from './OpenDocument'

/**
 * What the user must know about the open file, above its text: a conflict with the disk (with
 * unambiguous choices), that it is gone from disk, that it opened in reduced mode (and so without
 * the language servers, where the workspace has them).
 */
export function DocumentBanners({
  doc,
  manager,
  codeIntelligence,
}: {
  doc: EditorDocument
  manager: EditorManager
  codeIntelligence: boolean
}) {
  const name = displayName(doc.name)
  const conflict = doc.conflict
  return (
    <>
      {conflict && (
        <div className="editor-banner editor-banner-warn" role="alert">
          <span>
            {conflict.cause === 'save' ? (
              <>
                <strong>{name}</strong> changed on disk since you loaded it, so it was{' '}
                <strong>not saved</strong>. Your changes are still here.
              </>
            ) : (
              <>
                <strong>{name}</strong> changed on disk while you have unsaved changes. Nothing is lost until
                you choose.
              </>
            )}
          </span>
          <span className="editor-banner-actions">
            <button
              type="button"
              title="Keep your text; the disk version is replaced when you save"
              onClick={() => void manager.keepMine(doc.id)}
            >
              {conflict.cause === 'save' ? 'Overwrite with mine' : 'Keep mine'}
            </button>
            <button
              type="button"
              title="Replace your text with the disk version (Undo brings yours back)"
              onClick={() => void manager.loadDiskVersion(doc.id)}
            >
              Load disk version
            </button>
            {conflict.diskText !== undefined && (
              <button
                type="button"
                aria-pressed={doc.comparing}
                onClick={() => manager.compare(doc.id, !doc.comparing)}
              >
                {doc.comparing ? 'Close compare' : 'Compare'}
              </button>
            )}
          </span>
        </div>
      )}
      {doc.deletedOnDisk && (
        <div className="editor-banner editor-banner-warn" role="status">
          <span>
            <strong>{name}</strong> is no longer on disk (deleted or moved away).
            {doc.view === 'text' ? ' Its text is still here: Save writes it back.' : ''}
          </span>
          <span className="editor-banner-actions">
            {doc.view === 'text' && (
              <button type="button" onClick={() => void manager.save(doc.id)}>
                Save
              </button>
            )}
            <button type="button" onClick={() => manager.requestClose(doc.id)}>
              Close
            </button>
          </span>
        </div>
      )}
      {doc.view === 'text' && doc.reduced && (
        <div className="editor-banner" role="status">
          <span>
            <strong>{name}</strong> is {formatSize(doc.size ?? 0)}: opened in reduced mode (no syntax
            highlighting, folding, minimap or language features) so the editor stays responsive.
            {codeIntelligence && ' Code intelligence is off for this file.'}
          </span>
        </div>
      )}
    </>
  )
}
