// Hot exit against the editor over an in-memory disk: what is backed up when, what a page that
// opens after a lost one restores, and what it does when the disk moved on meanwhile.
import { describe, expect, it } from 'vitest'
import { contentHash } from '../contentHash'
import type { EditorManager } from '../EditorManager'
import { fakeSandbox, type PlainBuffer } from '../testing/fakeEditorSandbox'
import { memoryBackupStore, unavailableBackupStore } from './backupStore'
import { HotExit } from './HotExit'

const scope = 'local:sbx1'
const hashOf = (text: string) => contentHash(new TextEncoder().encode(text))
const noLeaving = () => () => {}

function withHotExit(initial: Record<string, string>, store = memoryBackupStore()) {
  const sandbox = fakeSandbox(initial)
  const hotExit = new HotExit(
    sandbox.editor,
    store,
    scope,
    { push: (_k, t) => sandbox.notices.push(t) },
    noLeaving,
  )
  return { ...sandbox, store, hotExit }
}

const docOf = (editor: EditorManager, path: string) =>
  editor.getSnapshot().documents.find((d) => d.path === path)
const bufferAt = (editor: EditorManager, path: string) =>
  docOf(editor, path)?.buffer as unknown as PlainBuffer

describe('HotExit', () => {
  it('keeps unsaved text with the disk version it is based on, and drops it once saved', async () => {
    const { editor, store, hotExit } = withHotExit({ '/p/a.py': 'x = 1\n' })
    await editor.open('/p/a.py')
    bufferAt(editor, '/p/a.py').type('x = 2\n')
    await hotExit.settled
    expect([...store.entries.values()]).toEqual([
      { path: '/p/a.py', text: 'x = 2\n', baseHash: hashOf('x = 1\n') },
    ])
    await editor.save()
    await hotExit.settled
    expect(store.entries.size).toBe(0)
  })

  it('drops the backup when the changes are discarded or undone, and keeps it when the workspace closes', async () => {
    const { editor, store, hotExit } = withHotExit({ '/p/a.txt': 'a', '/p/b.txt': 'b' })
    await editor.open('/p/a.txt')
    await editor.open('/p/b.txt')
    bufferAt(editor, '/p/a.txt').type('A')
    bufferAt(editor, '/p/b.txt').type('B')
    await hotExit.settled
    expect(store.entries.size).toBe(2)
    // Undone back to the disk's text: nothing unsaved.
    bufferAt(editor, '/p/b.txt').markSaved()
    await hotExit.settled
    expect([...store.entries.values()].map((u) => u.path)).toEqual(['/p/a.txt'])
    const a = docOf(editor, '/p/a.txt')?.id
    editor.requestClose(a)
    await editor.answerClose('discard')
    await hotExit.settled
    expect(store.entries.size).toBe(0)
    bufferAt(editor, '/p/b.txt').type('B again')
    await hotExit.settled
    hotExit.dispose()
    editor.dispose()
    expect([...store.entries.values()].map((u) => u.text)).toEqual(['B again'])
  })

  it('follows a rename: the backup is kept under the new path only', async () => {
    const { editor, store, hotExit, put, remove } = withHotExit({ '/p/old.txt': 'one' })
    await editor.open('/p/old.txt')
    bufferAt(editor, '/p/old.txt').type('two')
    await hotExit.settled
    remove('/p/old.txt')
    put('/p/new.txt', 'one')
    editor.renamed('/p/old.txt', '/p/new.txt')
    await hotExit.settled
    expect([...store.entries.values()].map((u) => u.path)).toEqual(['/p/new.txt'])
  })

  it('restores unsaved text on a disk that still holds its base: unsaved, no conflict, and says so', async () => {
    const store = memoryBackupStore()
    await store.put(scope, { path: '/p/a.py', text: 'x = 2\n', baseHash: hashOf('x = 1\n') })
    const { editor, hotExit, notices, text } = withHotExit({ '/p/a.py': 'x = 1\n' }, store)
    await hotExit.restore()
    expect(docOf(editor, '/p/a.py')).toMatchObject({ dirty: true, conflict: undefined })
    expect(bufferAt(editor, '/p/a.py').getText()).toBe('x = 2\n')
    expect(notices).toEqual([expect.stringContaining('Restored unsaved changes to /p/a.py')])
    await editor.save(docOf(editor, '/p/a.py')?.id)
    expect(text('/p/a.py')).toBe('x = 2\n')
    await hotExit.settled
    expect(store.entries.size).toBe(0)
  })

  it('restores over a disk that changed meanwhile as a conflict: neither side is overwritten until the user chooses', async () => {
    const store = memoryBackupStore()
    await store.put(scope, { path: '/p/a.py', text: 'mine\n', baseHash: hashOf('base\n') })
    const { editor, hotExit, text, writes } = withHotExit({ '/p/a.py': 'theirs\n' }, store)
    await hotExit.restore()
    const doc = docOf(editor, '/p/a.py')
    expect(doc).toMatchObject({ dirty: true, conflict: { cause: 'changed', diskText: 'theirs\n' } })
    expect(bufferAt(editor, '/p/a.py').getText()).toBe('mine\n')
    // Looking at the disk again (its tab shown) keeps the conflict: the disk is not what mine was based on.
    editor.activate(doc?.id ?? '')
    await editor.open('/p/a.py', { focus: false })
    expect(docOf(editor, '/p/a.py')?.conflict?.diskText).toBe('theirs\n')
    // A save asks instead of writing.
    await editor.save(doc?.id)
    expect(writes).toEqual([])
    expect(text('/p/a.py')).toBe('theirs\n')
    await editor.keepMine(doc?.id ?? '')
    expect(text('/p/a.py')).toBe('mine\n')
  })

  it('restores the text of a file gone from the disk as unsaved; a save writes it again', async () => {
    const store = memoryBackupStore()
    await store.put(scope, { path: '/p/gone.txt', text: 'kept', baseHash: hashOf('was') })
    const { editor, hotExit, text } = withHotExit({}, store)
    await hotExit.restore()
    expect(docOf(editor, '/p/gone.txt')).toMatchObject({ dirty: true, deletedOnDisk: true })
    await editor.save(docOf(editor, '/p/gone.txt')?.id)
    expect(text('/p/gone.txt')).toBe('kept')
  })

  it('leaves a file the user opened already as it is, and restores only its own workspace', async () => {
    const store = memoryBackupStore()
    await store.put(scope, { path: '/p/a.txt', text: 'backup', baseHash: hashOf('disk') })
    await store.put('local:other', { path: '/p/b.txt', text: 'other', baseHash: hashOf('disk') })
    const { editor, hotExit } = withHotExit({ '/p/a.txt': 'disk', '/p/b.txt': 'disk' }, store)
    await editor.open('/p/a.txt')
    await hotExit.restore()
    expect(editor.getSnapshot().documents.map((d) => [d.path, d.dirty])).toEqual([['/p/a.txt', false]])
  })

  it('stays within its bound: the oldest backups go first, and the user is told', async () => {
    const store = memoryBackupStore(20)
    const { editor, hotExit, notices } = withHotExit({ '/p/a.txt': '', '/p/b.txt': '' }, store)
    await editor.open('/p/a.txt')
    bufferAt(editor, '/p/a.txt').type('aaaaaaa')
    await hotExit.settled
    await editor.open('/p/b.txt')
    bufferAt(editor, '/p/b.txt').type('bbbbbbb')
    await hotExit.settled
    expect([...store.entries.values()].map((u) => u.path)).toEqual(['/p/b.txt'])
    expect(notices).toEqual([expect.stringContaining('the oldest (/p/a.txt) were dropped')])
  })

  it('where the browser denies storage, says once that unsaved changes are not kept', async () => {
    const store = unavailableBackupStore(new Error('The operation is insecure.'))
    const sandbox = fakeSandbox({ '/p/a.txt': 'a' })
    const hotExit = new HotExit(
      sandbox.editor,
      store,
      scope,
      { push: (_k, t) => sandbox.notices.push(t) },
      noLeaving,
    )
    await hotExit.restore()
    await sandbox.editor.open('/p/a.txt')
    bufferAt(sandbox.editor, '/p/a.txt').type('b')
    await hotExit.settled
    bufferAt(sandbox.editor, '/p/a.txt').type('c')
    await hotExit.settled
    expect(sandbox.notices).toEqual([
      'Unsaved changes are not kept in this browser (The operation is insecure.): if this page closes, what is not saved is lost.',
    ])
  })
})
