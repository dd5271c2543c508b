import { Suspense, useMemo, useRef, useState } from 'react'
import type { FileWatch } from '../../sandbox/fileWatch'
import type { ChangeLetter } from '../../sandbox/git/gitStatus'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { displayName } from '../../ui/displayName'
import { IconButton } from '../../ui/IconButton'
import { lazyNamed } from '../../ui/lazyNamed'
import { reportErrors } from '../../ui/notifications'
import { useExternalStore } from '../../ui/useExternalStore'
import type { MenuItem } from './ContextMenu'
import { childPath, explorerActions } from './explorerActions'
import { FileTreeView, type TreeCommands } from './FileTreeView'
import { type FileTree, parentOf } from './fileTree'
import { NameForm } from './NameForm'
import type { TreeRow } from './treeRows'
import { UploadList } from './UploadList'
import { droppedFiles, UploadQueue } from './uploads'
import { loadDir, useFileTree } from './useFileTree'

export interface ExplorerProps {
  session: SandboxSession
  watch: FileWatch
  /** Opens a file in the editor; `focus` says whether the editor takes the keyboard. */
  onOpenFile(path: string, options: { focus: boolean }): void
  onOpenTerminal(cwd: string): void
  onRenamed(from: string, to: string): void
  onRemoved(path: string): void
  /** Browse, open and download only: no file is created, renamed, moved, deleted or uploaded. */
  readOnly?: boolean
  /** Why one path may not be changed (a lab's read-only files), if it may not. */
  readOnlyReason?(path: string): string | undefined
  /** Files git sees changed and the folders holding them, by path (source control's decorations). */
  changes?: ReadonlyMap<string, ChangeLetter> | undefined
  /** Files others have open (co-editing), by path. */
  openBy?: ReadonlyMap<string, readonly { name: string; color: string }[]> | undefined
}

// Fetched on the first right-click (or Shift+F10): the explorer's first render does without it.
const ContextMenu = lazyNamed(() => import('./ContextMenu'), 'ContextMenu')

type Naming = { kind: 'file' | 'folder'; dir: string } | { kind: 'rename'; path: string }

/** The sandbox's files: a live tree with every file action, from the mouse and the keyboard. */
export function ExplorerPanel(props: ExplorerProps) {
  const tree = useFileTree(props.session, props.watch)
  return (
    <nav className="panel explorer" aria-label="Explorer">
      {tree ? <Explorer {...props} tree={tree} /> : <p className="panel-message">Connecting…</p>}
    </nav>
  )
}

function Explorer({
  session,
  tree,
  onOpenFile,
  onOpenTerminal,
  onRenamed,
  onRemoved,
  readOnly = false,
  readOnlyReason,
  changes,
  openBy,
}: ExplorerProps & { tree: FileTree }) {
  const rows = useExternalStore(tree)
  const editable = useExternalStore(session).state.kind === 'running' && !readOnly
  const [naming, setNaming] = useState<Naming>()
  const [menu, setMenu] = useState<{ row: TreeRow; x: number; y: number }>()
  const [deleting, setDeleting] = useState<TreeRow>()
  const [showHidden, setShowHidden] = useState(tree.showHidden)
  const [reveal, setReveal] = useState<string>()
  const confirm = useRef<HTMLDialogElement>(null)
  const actions = useMemo(
    () => explorerActions(session, tree, { renamed: onRenamed, removed: onRemoved, readOnlyReason }),
    [session, tree, onRenamed, onRemoved, readOnlyReason],
  )
  const uploads = useMemo(() => new UploadQueue(session.files, () => {}), [session])
  const focusTree = () => document.querySelector<HTMLElement>('[role="tree"][aria-label="Files"]')?.focus()
  const folderOf = (row: TreeRow | undefined) =>
    row ? (row.isDir ? row.path : parentOf(row.path)) : tree.root
  const activeRow = () => {
    const id = document
      .querySelector('[role="tree"][aria-label="Files"]')
      ?.getAttribute('aria-activedescendant')
    const index = Number(id?.replace('tree-row-', ''))
    return rows.at(index)
  }

  const commands: TreeCommands = {
    open: (row, focus) => onOpenFile(row.path, { focus }),
    toggle: (row) => {
      if (row.expanded) return tree.collapse(row.path)
      tree.expand(row.path)
      if (!tree.isLoaded(row.path)) void loadDir(session, tree, row.path)
    },
    rename: (row) => {
      if (actions.changeable(row.path)) setNaming({ kind: 'rename', path: row.path })
    },
    remove: (row) => {
      if (!actions.changeable(row.path)) return
      setDeleting(row)
      confirm.current?.showModal()
    },
    menu: (row, x, y) => setMenu({ row, x, y }),
    upload: (dir, data) => {
      void reportErrors('Reading the dropped files failed', async () =>
        uploads.add(dir, await droppedFiles(data)),
      )
    },
  }

  const menuItems = (row: TreeRow): MenuItem[] => [
    ...(row.isDir ? [] : [{ label: 'Open', shortcut: 'Enter', run: () => commands.open(row, true) }]),
    ...(editable
      ? [
          { label: 'New file…', run: () => setNaming({ kind: 'file', dir: folderOf(row) }) },
          { label: 'New folder…', run: () => setNaming({ kind: 'folder', dir: folderOf(row) }) },
          { label: 'Rename…', shortcut: 'F2', run: () => commands.rename(row) },
          { label: 'Delete', shortcut: 'Delete', run: () => commands.remove(row) },
        ]
      : []),
    {
      label: 'Download',
      run: () => void (row.isDir ? actions.downloadFolder(row.path) : actions.download(row.path)),
    },
    { label: 'Copy path', run: () => void actions.copyPath(row.path) },
    { label: 'Open terminal here', run: () => onOpenTerminal(folderOf(row)) },
  ]

  const submitName = async (name: string) => {
    const current = naming
    setNaming(undefined)
    if (!current || !name) return focusTree()
    const dir = current.kind === 'rename' ? parentOf(current.path) : current.dir
    await reportErrors(current.kind === 'rename' ? 'Renaming failed' : 'Creating failed', async () => {
      const target = childPath(dir, name)
      if (current.kind === 'rename') {
        if (target !== current.path) await actions.move(current.path, target)
      } else if (current.kind === 'file') await actions.newFile(dir, name)
      else await actions.newFolder(dir, name)
      // Show what was just made: open its folder and select it.
      if (dir !== tree.root && !tree.isExpanded(dir)) {
        tree.expand(dir)
        if (!tree.isLoaded(dir)) await loadDir(session, tree, dir)
      }
      setReveal(target)
    })
    focusTree()
  }

  return (
    <>
      <div className="panel-header">
        <h2 className="panel-title">Files</h2>
        <div className="explorer-tools">
          <IconButton
            icon="new-file"
            label="New file"
            disabled={!editable}
            onClick={() => setNaming({ kind: 'file', dir: folderOf(activeRow()) })}
          />
          <IconButton
            icon="new-folder"
            label="New folder"
            disabled={!editable}
            onClick={() => setNaming({ kind: 'folder', dir: folderOf(activeRow()) })}
          />
          <IconButton
            icon="refresh"
            label="Refresh files"
            onClick={() => {
              for (const dir of tree.visibleDirs()) void loadDir(session, tree, dir)
            }}
          />
          <IconButton icon="collapse-all" label="Collapse all folders" onClick={() => tree.collapseAll()} />
          <IconButton
            icon={showHidden ? 'eye' : 'eye-closed'}
            label="Show hidden files"
            pressed={showHidden}
            onClick={() => {
              tree.setShowHidden(!showHidden)
              setShowHidden(!showHidden)
            }}
          />
        </div>
      </div>
      {naming && (
        <NameForm
          label={
            naming.kind === 'rename'
              ? `New name for ${displayName(naming.path.slice(naming.path.lastIndexOf('/') + 1))}`
              : `New ${naming.kind} in ${displayName(naming.dir)}`
          }
          initial={naming.kind === 'rename' ? naming.path.slice(naming.path.lastIndexOf('/') + 1) : ''}
          onSubmit={(name) => void submitName(name)}
          onCancel={() => {
            setNaming(undefined)
            focusTree()
          }}
        />
      )}
      <FileTreeView
        tree={tree}
        rows={rows}
        actions={actions}
        commands={commands}
        disabled={!editable}
        reveal={reveal}
        changes={changes}
        openBy={openBy}
      />
      {rows.length === 0 && (
        <p className="panel-message">This folder is empty. Drop files here to upload them.</p>
      )}
      <UploadList queue={uploads} />
      {menu && (
        <Suspense fallback={null}>
          <ContextMenu items={menuItems(menu.row)} x={menu.x} y={menu.y} onClose={() => setMenu(undefined)} />
        </Suspense>
      )}
      <dialog ref={confirm} className="dialog" aria-labelledby="delete-title">
        <form
          method="dialog"
          onSubmit={(e) => {
            const choice = (e.nativeEvent as SubmitEvent).submitter?.getAttribute('value')
            if (choice === 'delete' && deleting) void actions.remove(deleting.path).then(focusTree)
            else focusTree()
          }}
        >
          <h3 id="delete-title">Delete {deleting ? displayName(deleting.name) : ''}?</h3>
          <p>
            {deleting?.isDir
              ? 'The folder and everything in it will be deleted.'
              : 'The file will be deleted.'}
          </p>
          <div className="dialog-actions">
            <button type="submit" value="cancel">
              Cancel
            </button>
            <button type="submit" value="delete" className="danger">
              Delete
            </button>
          </div>
        </form>
      </dialog>
    </>
  )
}
