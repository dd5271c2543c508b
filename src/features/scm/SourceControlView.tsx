import './scm.css'
import { type KeyboardEvent, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react'
import type { ChangeGroup, GitChange } from '../../sandbox/git/gitStatus'
import { GitError, type SourceControl, type SourceControlState } from '../../sandbox/git/SourceControl'
import { displayName } from '../../ui/displayName'
import type { FocusRequest } from '../../ui/FocusRequest'
import { IconButton } from '../../ui/IconButton'
import { type ExternalStore, useExternalStore } from '../../ui/useExternalStore'
import { type ChangeAction, ChangeTree } from './ChangeTree'
import { AuthorDialog, QuestionDialog } from './ScmDialogs'
import { scmRows } from './scmRows'

const noRequests: ExternalStore<number> = { subscribe: () => () => {}, getSnapshot: () => 0 }
/** The message being written, kept while the view is hidden (as VS Code keeps it). */
const drafts = new WeakMap<SourceControl, string>()
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
/** Strict, so a file that is not UTF-8 text opens as itself rather than as a garbled diff. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export interface SourceControlViewProps {
  /** Source control of the workspace's folder: the view uses its API alone. */
  scm: SourceControl
  /** Opens a file beside another version of it (left, read-only): the editor's diff. */
  onOpenDiff(path: string, against: { text: string; label: string }): void
  /** Opens a file (a new one, a conflict's, one that is not text). */
  onOpenFile(path: string): void
  /** Asks the view to take the keyboard (Ctrl+Shift+G): the message box, where there is one. */
  focus?: FocusRequest | undefined
  /** Asks the view to commit what its message box holds (Git: Commit in the palette). */
  commit?: FocusRequest | undefined
}

type Ask =
  | { kind: 'discard'; group: ChangeGroup; changes: GitChange[] }
  | { kind: 'stage-all' }
  | { kind: 'author'; options: CommitOptions }

interface CommitOptions {
  amend: boolean
  stageAll: boolean
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** "HEAD detached at 1a2b3c4", or the branch with how far it is from its upstream. */
function branchText(state: Extract<SourceControlState, { kind: 'repository' }>): string {
  const { name, oid, upstream, ahead, behind } = state.status.branch
  if (!name) return `HEAD detached at ${oid?.slice(0, 7) ?? '?'}`
  if (!oid) return `${name} (no commits yet)`
  if (!upstream) return name
  return `${name} ↑${ahead ?? 0} ↓${behind ?? 0}`
}

/**
 * VS Code's Source Control view for the workspace's repository: the branch, a message box with
 * Commit (Ctrl+Enter; asks to stage everything when nothing is staged) and Amend, the changes by
 * group with stage, unstage and discard (asked first), a file's diff against the index or HEAD a
 * click away; Initialize Repository where there is none, and word when git is missing.
 */
export function SourceControlView({ scm, onOpenDiff, onOpenFile, focus, commit }: SourceControlViewProps) {
  const { state, busy } = useExternalStore(scm)
  const titleId = useId()
  const section = useRef<HTMLElement>(null)
  const [error, setError] = useState<string>()
  const [note, setNote] = useState<string>()
  const [ask, setAsk] = useState<Ask>()
  const [message, setDraft] = useState(() => drafts.get(scm) ?? '')
  const setMessage = (text: string) => {
    drafts.set(scm, text)
    setDraft(text)
  }
  const [amend, setAmend] = useState(false)
  const messageBox = useRef<HTMLTextAreaElement>(null)

  const run = (what: string, action: () => Promise<void>) => {
    setError(undefined)
    setNote(undefined)
    action().catch((err: unknown) => setError(`${what}: ${errorText(err)}`))
  }

  const commitNow = (options: CommitOptions) => {
    setError(undefined)
    setNote(undefined)
    scm.commit(message, options).then(
      () => {
        setMessage('')
        setAmend(false)
      },
      (err: unknown) => {
        if (err instanceof GitError && err.kind === 'identity') setAsk({ kind: 'author', options })
        else setError(`Commit failed: ${errorText(err)}`)
      },
    )
  }

  // Ctrl+Enter, the Commit button, and Git: Commit all come here.
  const requestCommit = () => {
    if (state.kind !== 'repository' || busy) return
    const { groups } = state.status
    if (!amend && !message.trim()) {
      setNote('Type a message for the commit first.')
      messageBox.current?.focus()
      return
    }
    if (!amend && groups.staged.total === 0) {
      if (groups.changes.total + groups.untracked.total === 0) setNote('There are no changes to commit.')
      else setAsk({ kind: 'stage-all' })
      return
    }
    commitNow({ amend, stageAll: false })
  }

  const focusRequested = useExternalStore(focus ?? noRequests)
  // Until git has answered the view does not know what will take the keyboard (the message box, Initialize).
  const known = state.kind !== 'starting'
  useEffect(() => {
    // On mount too: the view may not have been shown (nor its code loaded) when asked.
    if (!(known && focusRequested > 0 && focus?.take())) return
    // A task later: the palette, closed by the same click, gives the keyboard back in a task of its own.
    setTimeout(() =>
      (
        section.current?.querySelector<HTMLElement>('textarea, .scm-empty button') ??
        section.current?.querySelector<HTMLElement>('.panel-message')
      )?.focus(),
    )
  }, [focus, focusRequested, known])
  const commitRequested = useExternalStore(commit ?? noRequests)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new request commits; the rest is read as it stands
  useEffect(() => {
    if (known && commitRequested > 0 && commit?.take()) requestCommit()
  }, [commit, commitRequested, known])

  const open = (change: GitChange, group: ChangeGroup) => {
    if (state.kind !== 'repository') return
    const path = `${state.root === '/' ? '' : state.root}/${change.path}`
    setNote(undefined)
    if (change.letter === 'D') {
      setNote(`${displayName(change.path)} is deleted: there is no file to show.`)
      return
    }
    // A new file has nothing to compare with, a conflict's file is its own diff (the markers).
    if (group === 'untracked' || group === 'merge' || change.letter === 'A') {
      onOpenFile(path)
      return
    }
    const side = group === 'staged' ? 'HEAD' : 'index'
    const from = group === 'staged' && change.from ? change.from.pathBytes : change.pathBytes
    run(`Opening ${change.path}`, async () => {
      const bytes = await scm.read(side, from)
      let text: string | undefined
      try {
        text = bytes && utf8.decode(bytes)
      } catch {
        text = undefined
      }
      if (text === undefined || text.includes('\0')) onOpenFile(path)
      else onOpenDiff(path, { text, label: side === 'HEAD' ? 'HEAD' : 'Index' })
    })
  }

  const onAction = (action: ChangeAction, group: ChangeGroup, changes: GitChange[]) => {
    if (action === 'discard') setAsk({ kind: 'discard', group, changes })
    else if (action === 'stage') run('Staging failed', () => scm.stage(changes))
    else run('Unstaging failed', () => scm.unstage(changes))
  }

  const onMessageKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (isMac ? event.metaKey : event.ctrlKey)) {
      event.preventDefault()
      requestCommit()
    }
  }

  return (
    <section ref={section} className="panel scm" aria-labelledby={titleId}>
      <div className="panel-header">
        <h2 className="panel-title" id={titleId}>
          Source Control
        </h2>
        {state.kind === 'repository' && (
          <span className="scm-toolbar">
            {state.remotes.length > 0 && (
              <>
                <IconButton
                  icon="repo-pull"
                  label="Pull"
                  disabled={!!busy}
                  onClick={() => run('Pull failed', () => scm.pull())}
                />
                <IconButton
                  icon="repo-push"
                  label="Push"
                  disabled={!!busy}
                  onClick={() => run('Push failed', () => scm.push())}
                />
              </>
            )}
            <IconButton
              icon="add"
              label="Stage All Changes"
              disabled={!!busy}
              onClick={() => run('Staging failed', () => scm.stageAll())}
            />
            <IconButton
              icon="refresh"
              label="Refresh"
              onClick={() => run('Refresh failed', () => scm.refresh())}
            />
          </span>
        )}
      </div>
      {busy && (
        <p className="scm-busy" role="status">
          {busy}…
        </p>
      )}
      {error && (
        <div className="scm-error" role="alert">
          <pre>{error}</pre>
          <IconButton icon="close" label="Dismiss" onClick={() => setError(undefined)} />
        </div>
      )}
      {note && (
        <p className="scm-note" role="status">
          {note}
        </p>
      )}
      {state.kind === 'repository' ? (
        <Repository
          state={state}
          busy={!!busy}
          message={message}
          setMessage={setMessage}
          amend={amend}
          setAmend={setAmend}
          messageBox={messageBox}
          onMessageKey={onMessageKey}
          onCommit={requestCommit}
          onOpen={open}
          onAction={onAction}
        />
      ) : (
        <NoRepository
          state={state}
          busy={!!busy}
          onInit={() => run('Initialize failed', () => scm.init())}
          onRetry={() => run('Refresh failed', () => scm.refresh())}
        />
      )}
      <QuestionDialog
        open={ask?.kind === 'discard'}
        title={
          ask?.kind === 'discard' && ask.group === 'untracked'
            ? 'Delete untracked files?'
            : 'Discard changes?'
        }
        confirm={ask?.kind === 'discard' && ask.group === 'untracked' ? 'Delete' : 'Discard'}
        danger
        onAnswer={(yes) => {
          const asked = ask
          setAsk(undefined)
          if (yes && asked?.kind === 'discard') run('Discard failed', () => scm.discard(asked.changes))
        }}
      >
        {ask?.kind === 'discard' && discardText(ask.group, ask.changes)}
      </QuestionDialog>
      <QuestionDialog
        open={ask?.kind === 'stage-all'}
        title="Nothing is staged"
        confirm="Stage All and Commit"
        onAnswer={(yes) => {
          setAsk(undefined)
          if (yes) commitNow({ amend: false, stageAll: true })
        }}
      >
        There are no staged changes to commit. Would you like to stage all your changes and commit them
        directly?
      </QuestionDialog>
      <AuthorDialog
        open={ask?.kind === 'author'}
        onAnswer={(author) => {
          const asked = ask
          setAsk(undefined)
          if (!author || asked?.kind !== 'author') return
          run('Setting the author failed', async () => {
            await scm.setAuthor(author.name, author.email)
            commitNow(asked.options)
          })
        }}
      />
    </section>
  )
}

function discardText(group: ChangeGroup, changes: GitChange[]): string {
  const which = changes.length === 1 ? (changes[0]?.path ?? '') : `${changes.length} files`
  return group === 'untracked'
    ? `${which} ${changes.length === 1 ? 'is' : 'are'} untracked: ${changes.length === 1 ? 'it' : 'they'} will be deleted. This cannot be undone.`
    : `The changes in ${which} will be lost: ${changes.length === 1 ? 'it gets' : 'they get'} the staged (or last committed) version back. This cannot be undone.`
}

function Repository({
  state,
  busy,
  message,
  setMessage,
  amend,
  setAmend,
  messageBox,
  onMessageKey,
  onCommit,
  onOpen,
  onAction,
}: {
  state: Extract<SourceControlState, { kind: 'repository' }>
  busy: boolean
  message: string
  setMessage(message: string): void
  amend: boolean
  setAmend(amend: boolean): void
  messageBox: RefObject<HTMLTextAreaElement | null>
  onMessageKey(event: KeyboardEvent<HTMLTextAreaElement>): void
  onCommit(): void
  onOpen(change: GitChange, group: ChangeGroup): void
  onAction(action: ChangeAction, group: ChangeGroup, changes: GitChange[]): void
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<ChangeGroup>>(() => new Set())
  const rows = useMemo(() => scmRows(state.status, collapsed), [state.status, collapsed])
  const branch = branchText(state)
  const hasCommits = state.status.branch.oid !== undefined
  const key = isMac ? 'Cmd' : 'Ctrl'
  const toggle = (group: ChangeGroup) =>
    setCollapsed((current) => {
      const next = new Set(current)
      if (!next.delete(group)) next.add(group)
      return next
    })
  return (
    <>
      <div className="scm-commit">
        <p className="scm-branch" title={state.root}>
          <span className="codicon codicon-source-control" aria-hidden="true" /> <span>{branch}</span>
        </p>
        <textarea
          ref={messageBox}
          className="scm-message"
          aria-label="Commit message"
          aria-keyshortcuts={isMac ? 'Meta+Enter' : 'Control+Enter'}
          placeholder={`Message (${key}+Enter to commit${state.status.branch.name ? ` on "${state.status.branch.name}"` : ''})`}
          value={message}
          rows={Math.min(8, Math.max(2, message.split('\n').length))}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={onMessageKey}
        />
        <div className="scm-commit-actions">
          <button type="button" className="primary" disabled={busy} onClick={onCommit}>
            {amend ? 'Commit (Amend)' : 'Commit'}
          </button>
          <label
            title={hasCommits ? 'Replace the last commit with this one' : 'There is no commit to amend yet'}
          >
            <input
              type="checkbox"
              checked={amend}
              disabled={!hasCommits}
              onChange={(e) => setAmend(e.target.checked)}
            />
            Amend
          </label>
        </div>
      </div>
      {rows.length === 0 ? (
        <p className="panel-message" tabIndex={-1}>
          No changes: the working tree matches the last commit.
        </p>
      ) : (
        <ChangeTree
          rows={rows}
          disabled={busy}
          onOpen={(change) => {
            const row = rows.find((r) => r.kind === 'change' && r.change === change)
            if (row) onOpen(change, row.group)
          }}
          onToggle={toggle}
          onAction={onAction}
        />
      )}
    </>
  )
}

function NoRepository({
  state,
  busy,
  onInit,
  onRetry,
}: {
  state: Exclude<SourceControlState, { kind: 'repository' }>
  busy: boolean
  onInit(): void
  onRetry(): void
}) {
  switch (state.kind) {
    case 'starting':
      return (
        <p className="panel-message" tabIndex={-1}>
          Looking for a repository…
        </p>
      )
    case 'missing':
      return (
        <div className="scm-empty">
          <p className="panel-message" tabIndex={-1}>
            Git is not installed in this sandbox, so there is no source control. Install it in the terminal
            (on Debian or Ubuntu: <code>sudo apt-get install -y git</code>), then Retry.
          </p>
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </div>
      )
    case 'none':
      return (
        <div className="scm-empty">
          <p className="panel-message">
            The folder <code>{state.folder}</code> is not a git repository. Initialize it to track its changes
            and commit them.
          </p>
          <button type="button" className="primary" disabled={busy} onClick={onInit}>
            Initialize Repository
          </button>
        </div>
      )
    case 'error':
      return (
        <div className="scm-empty">
          <p className="panel-message" tabIndex={-1}>
            Git could not read the repository of <code>{state.folder}</code>:
          </p>
          <pre className="scm-git-output">{state.message}</pre>
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </div>
      )
  }
}
