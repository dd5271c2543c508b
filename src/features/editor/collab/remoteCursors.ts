import * as monaco from 'monaco-editor/editor/editor.api'
import * as Y from 'yjs'
import type { Person } from '../../../sandbox/collab/Presence'
import type { SharedText } from '../../../sandbox/collab/SharedDocuments'

/** A CSS string holding any text safely: everything but letters, digits and spaces as an escape. */
function cssString(text: string): string {
  return `"${text.replace(/[^A-Za-z0-9 ]/g, (c) => `\\${(c.codePointAt(0) ?? 0).toString(16)} `)}"`
}

const styled = new Set<string>()
let sheet: HTMLStyleElement | undefined

/** The class names that draw one person's caret, label and selection, made once per person and look. */
function classesFor(person: Person): { caret: string; selection: string } {
  const key = `${person.id}-${person.color.slice(1)}`
  const caret = `remote-caret-${key}`
  const selection = `remote-selection-${key}`
  const rule = `${key} ${person.name}`
  if (!styled.has(rule)) {
    styled.add(rule)
    sheet ??= document.head.appendChild(document.createElement('style'))
    sheet.append(
      `.${caret}{border-left:2px solid ${person.color};margin-left:-1px}` +
        `.${caret}::after{content:${cssString(person.name)};background:${person.color}}` +
        `.${selection}{background:${person.color}33}`,
    )
  }
  return { caret: `remote-caret ${caret}`, selection: `remote-selection ${selection}` }
}

/** Where a Yjs relative position (JSON, as another page said it) is in the shared text now, if it is in it. */
export function offsetOf(shared: SharedText, json: unknown): number | undefined {
  try {
    const at = Y.createAbsolutePositionFromRelativePosition(
      Y.createRelativePositionFromJSON(json),
      shared.doc,
    )
    return at?.type === shared.text ? at.index : undefined
  } catch {
    return undefined
  }
}

/**
 * Draws the others' cursors and selections in a shared model: a caret in their colour with their
 * name above it, and their selection tinted. Their places come as Yjs relative positions, which
 * stay on the same characters while anyone edits.
 */
export function remoteCursors(model: monaco.editor.ITextModel, shared: SharedText) {
  let ids: string[] = []
  return {
    render(people: Person[]): void {
      const decorations: monaco.editor.IModelDeltaDecoration[] = []
      for (const person of people) {
        const cursor = person.cursor
        if (cursor?.path !== shared.path) continue
        const anchor = offsetOf(shared, cursor.anchor)
        const head = offsetOf(shared, cursor.head)
        if (anchor === undefined || head === undefined) continue
        const classes = classesFor(person)
        const at = model.getPositionAt(head)
        decorations.push({
          range: new monaco.Range(at.lineNumber, at.column, at.lineNumber, at.column),
          options: {
            beforeContentClassName: classes.caret,
            hoverMessage: { value: person.name },
            stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
          },
        })
        if (anchor !== head) {
          const from = model.getPositionAt(Math.min(anchor, head))
          const to = model.getPositionAt(Math.max(anchor, head))
          decorations.push({
            range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
            options: { className: classes.selection },
          })
        }
      }
      if (!model.isDisposed()) ids = model.deltaDecorations(ids, decorations)
    },
    dispose(): void {
      if (!model.isDisposed()) model.deltaDecorations(ids, [])
      ids = []
    },
  }
}
