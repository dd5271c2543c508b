import { randomId } from '../../common/randomId'
import type { SandboxFiles } from '../../sandbox/sandboxFiles'
import type { SandboxProcesses } from '../../sandbox/sandboxProcesses'
import { copyText } from '../../ui/copyText'
import { type NoticeSink, pageNotices, reportErrors } from '../../ui/notifications'
import { saveSandboxFile, saveToComputer } from '../../ui/saveToComputer'
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
  { files, processes }: { files: SandboxFiles; processes: Pick<SandboxProcesses, 'run'> },
  tree: FileTree,
  callbacks: {
    renamed(from: string, to: string): void
    removed(path: string): void
    /** Why a path may not be changed (a lab's read-only files), if it may not. */
    readOnlyReason?(path: string): string | undefined
  },
  notices: NoticeSink = pageNotices,
) {
  const report = (what: string, action: () => Promise<unknown>) => reportErrors(what, action, notices)
  const assertChangeable = (...paths: string[]) => {
    for (const path of paths) {
      const reason = callbacks.readOnlyReason?.(path)
      if (reason) throw new Error(reason)
    }
  }
  const refresh = async (path: string) => tree.upsert(path, await files.stat(path))
  return {
    /** False, with a notice saying why, when `path` may not be renamed or deleted. */
    changeable: (path: string) => {
      const reason = callbacks.readOnlyReason?.(path)
      if (reason) notices.push('error', reason)
      return !reason
    },
    newFile: (dir: string, name: string) =>
      report('Creating the file failed', async () => {
        const path = childPath(dir, name)
        assertChangeable(path)
        if (await files.find(path)) throw new Error(`${path} already exists`)
        await files.write(path, new Uint8Array())
        await refresh(path)
      }),
    newFolder: (dir: string, name: string) =>
      report('Creating the folder failed', async () => {
        const path = childPath(dir, name)
        assertChangeable(path)
        const entry = await files.makeDir(path)
        if (entry) tree.upsert(entry.path, entry)
      }),
    /** Renames in place (a new name) or moves (a new folder); open editors follow. */
    move: (from: string, to: string) =>
      report('Moving failed', async () => {
        if (from === to || to.startsWith(`${from}/`)) throw new Error(`cannot move ${from} into itself`)
        assertChangeable(from, to)
        const entry = await files.move(from, to)
        tree.remove(from)
        if (entry) tree.upsert(to, entry)
        callbacks.renamed(from, to)
      }),
    remove: (path: string) =>
      report('Deleting failed', async () => {
        assertChangeable(path)
        await files.remove(path)
        tree.remove(path)
        callbacks.removed(path)
      }),
    download: (path: string) =>
      report('Downloading failed', () => saveSandboxFile(files, path, baseName(path))),
    /**
     * A folder comes down as a .tar.gz made in the sandbox, read into the page, then removed
     * there (a link would leave the archive behind: the page cannot tell when the browser is done).
     */
    downloadFolder: (path: string) =>
      report('Downloading the folder failed', async () => {
        const archive = `/tmp/.ide-download-${randomId()}.tar.gz`
        const tar = await processes.run('tar', {
          args: ['-czf', archive, '-C', parentOf(path), '--', baseName(path)],
        })
        if (tar.exitCode !== 0) throw new Error(tar.stderr.trim() || 'tar failed')
        try {
          saveToComputer(await files.read(archive), `${baseName(path)}.tar.gz`)
        } finally {
          await files.remove(archive)
        }
      }),
    copyPath: (path: string) => report('Copying the path failed', () => copyText(path)),
  }
}

export type ExplorerActions = ReturnType<typeof explorerActions>
