// The editor against fakes of the domain layer (testing/fakeEditorSandbox.ts): an in-memory disk,
// a watch the test drives, plain-text buffers in place of Monaco's models.
import { describe, expect, it, vi } from 'vitest'
import { EventType } from '../../sandbox/sandboxFiles'
import type { EditorManager } from './EditorManager'
import { fakeSandbox, type PlainBuffer } from './testing/fakeEditorSandbox'

const active = (editor: EditorManager) => {
  const { documents, activeId } = editor.getSnapshot()
  return documents.find((d) => d.id === activeId)
}
const bufferOf = (editor: EditorManager) => active(editor)?.buffer as unknown as PlainBuffer

describe('EditorManager', () => {
  it('opens a file in a tab that takes the keyboard, once, and shows an open file again instead of twice', async () => {
    const { editor } = fakeSandbox({ '/home/user/a.py': 'print(1)\n' })
    await editor.open('/home/user/a.py')
    expect(active(editor)).toMatchObject({ name: 'a.py', view: 'text', dirty: false, size: 9 })
    expect(bufferOf(editor).getText()).toBe('print(1)\n')
    expect(editor.takeFocusRequest()).toBe(true)
    expect(editor.takeFocusRequest()).toBe(false)
    await editor.open('/home/user/a.py', { focus: false })
    expect(editor.getSnapshot().documents).toHaveLength(1)
    expect(editor.takeFocusRequest()).toBe(false)
  })

  it('shows binary files, missing files and folders for what they are, and opens a missing one on retry once it exists', async () => {
    const { editor, put } = fakeSandbox({ '/p/bin': new Uint8Array([0, 1, 2, 0xff]), '/p/dir/x': '' })
    await editor.open('/p/bin')
    expect(active(editor)?.view).toBe('binary')
    await editor.open('/p/dir')
    expect(active(editor)).toMatchObject({ view: 'error', error: 'it is a folder' })
    await editor.open('/p/new.txt')
    expect(active(editor)).toMatchObject({ view: 'error', error: "path '/p/new.txt' does not exist" })
    put('/p/new.txt', 'hello')
    await editor.retry(editor.getSnapshot().activeId ?? '')
    expect(active(editor)?.view).toBe('text')
  })

  it('saves what was typed, tells who listens, and is clean afterwards', async () => {
    const sandbox = fakeSandbox({ '/p/a.txt': 'one' })
    const saved = vi.fn()
    sandbox.editor.onSaved(saved)
    await sandbox.editor.open('/p/a.txt')
    bufferOf(sandbox.editor).type('two')
    expect(active(sandbox.editor)?.dirty).toBe(true)
    expect(sandbox.editor.hasUnsaved()).toBe(true)
    await sandbox.editor.save()
    expect(sandbox.text('/p/a.txt')).toBe('two')
    expect(saved).toHaveBeenCalledWith('/p/a.txt')
    expect(active(sandbox.editor)?.dirty).toBe(false)
    expect(sandbox.notices).toEqual([])
  })

  it('refuses to overwrite a change it has not seen: the save becomes a conflict, and Keep mine saves', async () => {
    const sandbox = fakeSandbox({ '/p/a.txt': 'one' })
    await sandbox.editor.open('/p/a.txt')
    bufferOf(sandbox.editor).type('mine')
    sandbox.put('/p/a.txt', 'theirs')
    await sandbox.editor.save()
    expect(sandbox.text('/p/a.txt')).toBe('theirs')
    expect(active(sandbox.editor)?.conflict).toEqual({ cause: 'save', diskText: 'theirs' })
    await sandbox.editor.keepMine(active(sandbox.editor)?.id ?? '')
    expect(sandbox.text('/p/a.txt')).toBe('mine')
    expect(active(sandbox.editor)).toMatchObject({ conflict: undefined, dirty: false })
  })

  it('takes a change on disk quietly when clean, and asks when there are unsaved edits', async () => {
    const sandbox = fakeSandbox({ '/p/a.txt': 'one' })
    await sandbox.editor.open('/p/a.txt')
    const id = active(sandbox.editor)?.id ?? ''
    sandbox.put('/p/a.txt', 'two')
    sandbox.notify([{ type: EventType.WRITE, path: '/p/a.txt' }])
    await vi.waitFor(() => expect(bufferOf(sandbox.editor).getText()).toBe('two'))
    expect(active(sandbox.editor)?.dirty).toBe(false)

    bufferOf(sandbox.editor).type('mine')
    sandbox.put('/p/a.txt', 'three')
    sandbox.notify([{ type: EventType.WRITE, path: '/p/a.txt' }])
    await vi.waitFor(() =>
      expect(active(sandbox.editor)?.conflict).toEqual({ cause: 'changed', diskText: 'three' }),
    )
    expect(bufferOf(sandbox.editor).getText()).toBe('mine')
    await sandbox.editor.loadDiskVersion(id)
    expect(bufferOf(sandbox.editor).getText()).toBe('three')
    expect(active(sandbox.editor)).toMatchObject({ conflict: undefined, dirty: false })
  })

  it('sees a file written again with the same bytes as no change at all', async () => {
    const sandbox = fakeSandbox({ '/p/a.txt': 'same' })
    await sandbox.editor.open('/p/a.txt')
    bufferOf(sandbox.editor).type('edited')
    sandbox.put('/p/a.txt', 'same')
    sandbox.notify([{ type: EventType.WRITE, path: '/p/a.txt' }])
    await sandbox.editor.save()
    expect(sandbox.text('/p/a.txt')).toBe('edited')
    expect(active(sandbox.editor)?.conflict).toBeUndefined()
  })

  it('follows a rename made in a terminal, and keeps unsaved text of a file deleted on disk', async () => {
    const sandbox = fakeSandbox({ '/p/a.txt': 'one', '/p/b.txt': 'bee' })
    await sandbox.editor.open('/p/a.txt')
    await sandbox.editor.open('/p/b.txt')
    const before = sandbox.entryOf('/p/a.txt')
    sandbox.put('/p/moved.txt', 'one')
    const moved = sandbox.entryOf('/p/moved.txt')
    moved.modifiedTime = before.modifiedTime
    sandbox.remove('/p/a.txt')
    sandbox.notify([
      { type: EventType.RENAME, path: '/p/a.txt' },
      { type: EventType.CREATE, path: '/p/moved.txt', entry: moved },
    ])
    expect(sandbox.editor.getSnapshot().documents.map((d) => d.path)).toEqual(['/p/moved.txt', '/p/b.txt'])

    bufferOf(sandbox.editor).type('unsaved')
    sandbox.remove('/p/b.txt')
    sandbox.notify([{ type: EventType.REMOVE, path: '/p/b.txt' }])
    await vi.waitFor(() => expect(active(sandbox.editor)?.deletedOnDisk).toBe(true))
    expect(bufferOf(sandbox.editor).getText()).toBe('unsaved')
  })

  it('closes clean tabs under a folder the explorer deleted, and keeps dirty ones marked deleted', async () => {
    const sandbox = fakeSandbox({ '/p/d/clean.txt': 'c', '/p/d/dirty.txt': 'd', '/p/keep.txt': 'k' })
    await sandbox.editor.open('/p/d/clean.txt')
    const cleanBuffer = bufferOf(sandbox.editor)
    await sandbox.editor.open('/p/d/dirty.txt')
    bufferOf(sandbox.editor).type('edited')
    await sandbox.editor.open('/p/keep.txt')
    sandbox.editor.removed('/p/d')
    const documents = sandbox.editor.getSnapshot().documents
    expect(documents.map((d) => [d.path, d.deletedOnDisk])).toEqual([
      ['/p/d/dirty.txt', true],
      ['/p/keep.txt', false],
    ])
    expect(cleanBuffer.disposed).toBe(true)
  })

  it('asks before closing unsaved work, and does what the answer says', async () => {
    const sandbox = fakeSandbox({ '/p/a.txt': 'one', '/p/b.txt': 'two' })
    await sandbox.editor.open('/p/a.txt')
    await sandbox.editor.open('/p/b.txt')
    bufferOf(sandbox.editor).type('edited')
    sandbox.editor.requestClose()
    expect(sandbox.editor.getSnapshot().closing).toBe(active(sandbox.editor)?.id)
    await sandbox.editor.answerClose('cancel')
    expect(sandbox.editor.getSnapshot().documents).toHaveLength(2)
    sandbox.editor.requestClose()
    await sandbox.editor.answerClose('save')
    expect(sandbox.text('/p/b.txt')).toBe('edited')
    expect(sandbox.editor.getSnapshot().documents.map((d) => d.path)).toEqual(['/p/a.txt'])
  })

  it('saves nothing while the sandbox is stopped or the file is read-only, and says why', async () => {
    const sandbox = fakeSandbox({ '/p/tests/t.py': 'assert True', '/p/a.txt': 'a' })
    const lift = sandbox.editor.addReadOnlyRule((path) =>
      path.includes('/tests/') ? 'the lab protects it' : undefined,
    )
    await sandbox.editor.open('/p/tests/t.py')
    expect(active(sandbox.editor)?.readOnly).toBe('the lab protects it')
    bufferOf(sandbox.editor).type('assert False')
    await sandbox.editor.save()
    lift()
    expect(active(sandbox.editor)?.readOnly).toBeUndefined()
    sandbox.stop()
    await sandbox.editor.save()
    expect(sandbox.writes).toEqual([])
    expect(sandbox.notices).toEqual([
      '/p/tests/t.py was not saved: the lab protects it',
      '/p/tests/t.py was not saved: the sandbox is not running, so the editor is read-only',
    ])
  })

  it('says whether code intelligence is on, for the banners, telling only a change', () => {
    const { editor } = fakeSandbox({})
    let changes = 0
    editor.subscribe(() => changes++)
    expect(editor.getSnapshot().codeIntelligence).toBe(false)
    editor.setCodeIntelligence(true)
    editor.setCodeIntelligence(true)
    expect(editor.getSnapshot().codeIntelligence).toBe(true)
    editor.setCodeIntelligence(false)
    expect(editor.getSnapshot().codeIntelligence).toBe(false)
    expect(changes).toBe(2)
  })

  it("shows a file beside another version of it (git's), until asked to stop or the tab closes", async () => {
    const { editor, notices } = fakeSandbox({ '/p/a.txt': 'new\n', '/p/bin': new Uint8Array([0, 1]) })
    await editor.compareWith('/p/a.txt', { text: 'old\n', label: 'Index' })
    const id = editor.getSnapshot().activeId ?? ''
    expect(active(editor)?.path).toBe('/p/a.txt')
    expect(editor.getSnapshot().comparisons.get(id)).toEqual({ text: 'old\n', label: 'Index' })
    // The right side is the file's own buffer: typing there is an edit to save.
    bufferOf(editor).type('newer\n')
    expect(active(editor)?.dirty).toBe(true)
    editor.stopComparing(id)
    expect(editor.getSnapshot().comparisons.size).toBe(0)
    await editor.compareWith('/p/a.txt', { text: 'older\n', label: 'HEAD' })
    editor.requestClose(id)
    await editor.answerClose('discard')
    expect(editor.getSnapshot().comparisons.size).toBe(0)
    await editor.compareWith('/p/bin', { text: '', label: 'HEAD' })
    expect(editor.getSnapshot().comparisons.size).toBe(0)
    expect(notices).toEqual(['/p/bin cannot be compared: it is not open as text'])
  })

  it('cycles through tabs and shows the neighbour of a closed one', async () => {
    const { editor } = fakeSandbox({ '/a': '1', '/b': '2', '/c': '3' })
    for (const path of ['/a', '/b', '/c']) await editor.open(path)
    editor.cycle(1)
    expect(active(editor)?.path).toBe('/a')
    editor.cycle(-1)
    expect(active(editor)?.path).toBe('/c')
    editor.cycle(-1)
    editor.requestClose()
    expect(active(editor)?.path).toBe('/c')
  })
})
