// The gutter's link to source control, against fakes: an editor with one open text file whose
// model records its decorations, and source control whose HEAD the test moves.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Subscribers } from '../../../common/Subscribers'
import type { SourceControlSnapshot } from '../../../sandbox/git/SourceControl'
import type { EditorManager, EditorSnapshot } from '../EditorManager'
import type { EditorDocument } from '../OpenDocument'
import { linkEditorToGit } from './linkEditorToGit'

/** What the link uses of a Monaco model: its text, its edits and its decorations. */
class FakeModel {
  text: string
  decorations: { line: number; end: number; className: string }[] = []
  private readonly edits = new Set<() => void>()
  constructor(text: string) {
    this.text = text
  }
  isDisposed = () => false
  onDidChangeContent(listener: () => void) {
    this.edits.add(listener)
    return { dispose: () => this.edits.delete(listener) }
  }
  deltaDecorations(
    _old: string[],
    next: {
      range: { startLineNumber: number; endLineNumber: number }
      options: { linesDecorationsClassName: string }
    }[],
  ) {
    this.decorations = next.map((d) => ({
      line: d.range.startLineNumber,
      end: d.range.endLineNumber,
      className: d.options.linesDecorationsClassName,
    }))
    return next.map((_, i) => String(i))
  }
  type(text: string) {
    this.text = text
    for (const listener of this.edits) listener()
  }
}

function setup(files: Record<string, string>) {
  const model = new FakeModel('one\nTWO\nthree\n')
  const buffer = { model, getText: () => model.text }
  const doc = {
    id: 'editor-1',
    path: '/home/user/a.txt',
    view: 'text',
    buffer,
    reduced: false,
  } as unknown as EditorDocument
  const editorSubscribers = new Subscribers()
  const editor = {
    subscribe: editorSubscribers.add,
    getSnapshot: () => ({ documents: [doc] }) as unknown as EditorSnapshot,
  } as unknown as EditorManager
  const gitSubscribers = new Subscribers()
  let oid = 'c1'
  const reads: string[] = []
  const git = {
    subscribe: gitSubscribers.add,
    getSnapshot: () =>
      ({
        state: { kind: 'repository', root: '/home/user', status: { branch: { oid } } },
      }) as unknown as SourceControlSnapshot,
    read: async (_side: 'HEAD' | 'index', path: string | Uint8Array) => {
      reads.push(String(path))
      const text = files[`${oid}:${String(path)}`]
      return text === undefined ? undefined : new TextEncoder().encode(text)
    },
    relativePath: (absolute: string) => absolute.replace('/home/user/', ''),
  }
  const commit = (next: string) => {
    oid = next
    gitSubscribers.notify()
  }
  return { model, unlink: linkEditorToGit(editor, git), commit, reads }
}

describe('linkEditorToGit', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("marks the lines that differ from HEAD's text as the file opens", async () => {
    const { model } = setup({ 'c1:a.txt': 'one\ntwo\nthree\n' })
    await vi.waitFor(() => expect(model.decorations).toHaveLength(1))
    expect(model.decorations[0]).toEqual({ line: 2, end: 2, className: 'dirty-diff dirty-diff-modified' })
  })

  it('marks again a moment after typing stops, not at each key', async () => {
    const { model } = setup({ 'c1:a.txt': 'one\ntwo\nthree\n' })
    await vi.waitFor(() => expect(model.decorations).toHaveLength(1))
    model.type('one\nTWO\nthree\nfour\n')
    model.type('zero\none\nTWO\nthree\nfour\n')
    expect(model.decorations).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(300)
    expect(model.decorations.map((d) => d.className)).toEqual([
      'dirty-diff dirty-diff-added',
      'dirty-diff dirty-diff-modified',
      'dirty-diff dirty-diff-added',
    ])
  })

  it('reads HEAD again when it moves (a commit), and marks nothing where HEAD has no such file', async () => {
    const { model, commit, reads } = setup({
      'c1:a.txt': 'one\ntwo\nthree\n',
      'c2:a.txt': 'one\nTWO\nthree\n',
    })
    await vi.waitFor(() => expect(model.decorations).toHaveLength(1))
    commit('c2')
    await vi.waitFor(() => expect(model.decorations).toHaveLength(0))
    commit('c3')
    await vi.waitFor(() => expect(reads).toHaveLength(3))
    model.type('changed\n')
    await vi.advanceTimersByTimeAsync(300)
    expect(model.decorations).toEqual([])
  })

  it('takes its marks away when unlinked', async () => {
    const { model, unlink } = setup({ 'c1:a.txt': 'one\n' })
    await vi.waitFor(() => expect(model.decorations).not.toHaveLength(0))
    unlink()
    expect(model.decorations).toEqual([])
  })
})
