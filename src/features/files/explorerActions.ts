import { readFile, saveToComputer, writeFile } from '../../api/files'
import { runCommand } from '../../api/runCommand'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { reportErrors, useNotices } from '../../ui/notifications'
import { baseName, type FileTree, parentOf } from './fileTree'

/** Joins a folder and a name typed by the user; a name may not hold a slash or be . or .. */
export function childPath(dir: string, name: string): string {
  if (!name || name === '.' || name === '..' || name.includes('/')) {
    throw new Error(`'${name}' is not a valid name: no slashes, and not . or ..`)
  }
  return dir === '/' ? `/${name}` : `${dir}/${name}`
}

/** The explorer's actions; each reports the runtime's message when it fails and keeps the tree in step. */
export function explorerActions(
  session: SandboxSession,
  tree: FileTree,
  callbacks: {
    renamed(from: string, to: string): void
    removed(path: string): void
    /** Why a path may not be changed (a lab's read-only files), if it may not. */
    readOnlyReason?(path: string): string | undefined
  },
) {
  const assertChangeable = (...paths: string[]) => {
    for (const path of paths) {
      const reason = callbacks.readOnlyReason?.(path)
      if (reason) throw new Error(reason)
    }
  }
  const clients = () => {
    const c = session.clients
    if (!c) throw new Error('the sandbox is not connected')
    return c
  }
  const endpoint = () => {
    const e = session.endpoint
    if (!e) throw new Error('the sandbox is not connected')
    return e
  }
  const refresh = async (path: string) => {
    const { entry } = await clients().filesystem.stat({ path })
    if (entry) tree.upsert(path, entry)
  }
  return {
    /** False, with a notice saying why, when `path` may not be renamed or deleted. */
    changeable: (path: string) => {
      const reason = callbacks.readOnlyReason?.(path)
      if (reason) useNotices.getState().push('error', reason)
      return !reason
    },
    newFile: (dir: string, name: string) =>
      reportErrors('Creating the file failed', async () => {
        const path = childPath(dir, name)
        assertChangeable(path)
        const exists = await clients()
          .filesystem.stat({ path })
          .then(() => true)
          .catch(() => false)
        if (exists) throw new Error(`${path} already exists`)
        await writeFile(endpoint(), path, new Uint8Array())
        await refresh(path)
      }),
    newFolder: (dir: string, name: string) =>
      reportErrors('Creating the folder failed', async () => {
        const path = childPath(dir, name)
        assertChangeable(path)
        const { entry } = await clients().filesystem.makeDir({ path })
        if (entry) tree.upsert(entry.path, entry)
      }),
    /** Renames in place (a new name) or moves (a new folder); open editors follow. */
    move: (from: string, to: string) =>
      reportErrors('Moving failed', async () => {
        if (from === to || to.startsWith(`${from}/`)) throw new Error(`cannot move ${from} into itself`)
        assertChangeable(from, to)
        const { entry } = await clients().filesystem.move({ source: from, destination: to })
        tree.remove(from)
        if (entry) tree.upsert(to, entry)
        callbacks.renamed(from, to)
      }),
    remove: (path: string) =>
      reportErrors('Deleting failed', async () => {
        assertChangeable(path)
        await clients().filesystem.remove({ path })
        tree.remove(path)
        callbacks.removed(path)
      }),
    download: (path: string) =>
      reportErrors('Downloading failed', async () =>
        saveToComputer(await readFile(endpoint(), path), baseName(path)),
      ),
    /** A folder comes down as a .tar.gz made in the sandbox, then removed there. */
    downloadFolder: (path: string) =>
      reportErrors('Downloading the folder failed', async () => {
        const archive = `/tmp/.ide-download-${crypto.randomUUID()}.tar.gz`
        const tar = await runCommand(clients().process, 'tar', {
          args: ['-czf', archive, '-C', parentOf(path), '--', baseName(path)],
        })
        if (tar.exitCode !== 0) throw new Error(tar.stderr.trim() || 'tar failed')
        try {
          saveToComputer(await readFile(endpoint(), archive), `${baseName(path)}.tar.gz`)
        } finally {
          await clients().filesystem.remove({ path: archive })
        }
      }),
    copyPath: (path: string) =>
      reportErrors('Copying the path failed', () => navigator.clipboard.writeText(path)),
  }
}

export type ExplorerActions = ReturnType<typeof explorerActions>
