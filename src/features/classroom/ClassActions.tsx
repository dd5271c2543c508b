import type { ClassBoard } from './useClassBoard'

/** The toolbar for the whole class; ending it asks first, so the dashboard holds that dialog. */
export function ClassActions({ board, onEnd }: { board: ClassBoard; onEnd(): void }) {
  const { busy } = board
  return (
    <div role="toolbar" aria-label="The whole class" className="row-actions">
      <button type="button" className="primary" disabled={busy} onClick={() => board.check()}>
        Run the check for everyone
      </button>
      <button type="button" disabled={busy} onClick={board.pauseAll}>
        Pause all
      </button>
      <button type="button" disabled={busy} onClick={board.resumeAll}>
        Resume all
      </button>
      <button type="button" disabled={busy} onClick={board.extendAll}>
        Give everyone 2 hours
      </button>
      <button type="button" className="danger" disabled={busy} onClick={onEnd}>
        End the class…
      </button>
    </div>
  )
}
