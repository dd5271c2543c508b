// The explorer's actions against a fake of the domain layer: what reaches the sandbox, what the
// tree shows after, and what the user is told.
import { beforeEach, describe, expect, it } from 'vitest'
import { SandboxError } from '../../sandbox/sandboxError'
import { type EntryInfo, FileType, fileEntry, type SandboxFiles } from '../../sandbox/sandboxFiles'
import { useNotices } from '../../ui/notifications'
import { explorerActions } from './explorerActions'
import { FileTree } from './fileTree'

const home = '/home/user'

/** Files kept in a map, as a sandbox would keep them. */
function fakeFiles(paths: string[]) {
  const entries = new Map<string, EntryInfo>()
  const add = (path: string, type = FileType.FILE) =>
    entries.set(path, fileEntry({ path, name: path.slice(path.lastIndexOf('/') + 1), type }))
  for (const path of paths) add(path)
  const stat = async (path: string) => {
    const entry = entries.get(path)
    if (!entry) throw new SandboxError('not-found', `path not found: ${path}`)
    return entry
  }
  const files: SandboxFiles = {
    stat,
    find: async (path) => entries.get(path),
    list: async () => [...entries.values()],
    home: async () => home,
    read: async () => new Uint8Array(),
    saveLink: async () => undefined,
    write: async (path) => void add(path),
    upload: async (path) => void add(path),
    makeDir: async (path) => add(path, FileType.DIRECTORY).get(path),
    move: async (from, to) => {
      if (!entries.delete(from)) throw new SandboxError('not-found', `source file not found: ${from}`)
      return add(to).get(to)
    },
    remove: async (path) => void entries.delete(path),
  }
  return { files, entries }
}

describe('explorerActions', () => {
  let tree: FileTree
  const renamed: string[] = []
  const told: string[] = []
  const notices = { push: (_kind: string, text: string) => void told.push(text) }
  const noProcesses = { run: async () => Promise.reject(new Error('no processes here')) }

  beforeEach(() => {
    tree = new FileTree(home)
    tree.setListing(home, [])
    renamed.length = 0
    told.length = 0
    useNotices.setState({ notices: [] })
  })
  const lastError = () => useNotices.getState().notices.at(-1)?.text

  it('creates a file and a folder, and shows them', async () => {
    const { files, entries } = fakeFiles([])
    const actions = explorerActions({ files, processes: noProcesses }, tree, {
      renamed: () => {},
      removed: () => {},
    })
    await actions.newFile(home, 'a.txt')
    await actions.newFolder(home, 'src')
    expect([...entries.keys()]).toEqual([`${home}/a.txt`, `${home}/src`])
    expect([...tree.getSnapshot()].map((row) => row.path)).toEqual([`${home}/src`, `${home}/a.txt`])
  })

  it('refuses a name that exists or is not a name, with a notice, and writes nothing', async () => {
    const { files, entries } = fakeFiles([`${home}/a.txt`])
    const actions = explorerActions({ files, processes: noProcesses }, tree, {
      renamed: () => {},
      removed: () => {},
    })
    await actions.newFile(home, 'a.txt')
    expect(lastError()).toBe(`Creating the file failed: ${home}/a.txt already exists`)
    await actions.newFile(home, '../escape')
    expect(lastError()).toContain("'../escape' is not a valid name")
    expect(entries.size).toBe(1)
  })

  it('moves, tells the editor, and shows the server’s message when the source is gone', async () => {
    const { files } = fakeFiles([`${home}/a.txt`])
    const actions = explorerActions({ files, processes: noProcesses }, tree, {
      renamed: (from, to) => void renamed.push(`${from} -> ${to}`),
      removed: () => {},
    })
    await actions.move(`${home}/a.txt`, `${home}/b.txt`)
    expect(renamed).toEqual([`${home}/a.txt -> ${home}/b.txt`])
    await actions.move(`${home}/a.txt`, `${home}/c.txt`)
    expect(lastError()).toBe(`Moving failed: source file not found: ${home}/a.txt`)
  })

  it('says why a read-only path may not change, through the notices it was given', async () => {
    const { files, entries } = fakeFiles([`${home}/lab.md`])
    const actions = explorerActions(
      { files, processes: noProcesses },
      tree,
      { renamed: () => {}, removed: () => {}, readOnlyReason: () => 'lab.md is part of the lab' },
      notices,
    )
    expect(actions.changeable(`${home}/lab.md`)).toBe(false)
    expect(told).toEqual(['lab.md is part of the lab'])
    await actions.remove(`${home}/lab.md`)
    expect(told).toEqual(['lab.md is part of the lab', 'Deleting failed: lab.md is part of the lab'])
    expect(entries.has(`${home}/lab.md`)).toBe(true)
  })
})
