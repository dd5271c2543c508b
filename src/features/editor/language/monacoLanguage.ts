// Monaco's language features answered by the sandbox's language servers: the providers Monaco
// asks (completion, hover, signature help, definition, references, rename, formatting, symbols,
// code actions) and the markers it draws, translated between LSP and Monaco. Part of the editor's
// lazy chunk: loaded once a file of a served language opens, after Monaco.
import type * as Monaco from 'monaco-editor/editor/editor.api'
import type * as Lsp from 'vscode-languageserver-protocol'
import type { LanguageService } from '../../../sandbox/language/LanguageService'
import { pathOfUri, uriOfPath } from '../../../sandbox/language/uris'
import type { MonacoModule } from '../loadMonaco'
import { modelScheme } from '../modelScheme'
import type { EditorWorkspace } from './editorWorkspace'

type MonacoApi = MonacoModule['monaco']

/** An open document's model as the providers find it: its path and the workspace it belongs to. */
interface Target {
  path: string
  service: LanguageService
  editor: EditorWorkspace
}

/** Models of open documents, by their URI: what every provider looks its model up in. */
const targets = new Map<string, Target>()

/** Models made to show places in files that are not open (a definition, a reference), by path. */
const previews = new Map<string, Monaco.editor.ITextModel>()
/** At most this many such models are kept, the oldest let go first. */
const maxPreviews = 50

/** Tells the providers that `model` is the open document `path` of a workspace; returns what forgets it. */
export function serve(model: Monaco.editor.ITextModel, target: Target): () => void {
  const key = model.uri.toString()
  targets.set(key, target)
  return () => {
    if (targets.get(key) === target) targets.delete(key)
  }
}

const toPosition = (p: Monaco.IPosition): Lsp.Position => ({
  line: p.lineNumber - 1,
  character: p.column - 1,
})

function toRange(r: Lsp.Range): Monaco.IRange {
  return {
    startLineNumber: r.start.line + 1,
    startColumn: r.start.character + 1,
    endLineNumber: r.end.line + 1,
    endColumn: r.end.character + 1,
  }
}

const fromRange = (r: Monaco.IRange): Lsp.Range => ({
  start: { line: r.startLineNumber - 1, character: r.startColumn - 1 },
  end: { line: r.endLineNumber - 1, character: r.endColumn - 1 },
})

function markdown(
  content: Lsp.MarkupContent | Lsp.MarkedString | string | undefined,
): Monaco.IMarkdownString[] {
  if (content === undefined) return []
  if (typeof content === 'string') return content ? [{ value: content }] : []
  if ('kind' in content)
    return content.kind === 'markdown'
      ? [{ value: content.value }]
      : [{ value: escapeMarkdown(content.value) }]
  return [{ value: `\`\`\`${content.language}\n${content.value}\n\`\`\`` }]
}

const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&')

/** LSP's completion kinds (1-based, its own order) as Monaco's. */
const completionKinds = (m: MonacoApi): Record<number, Monaco.languages.CompletionItemKind> => {
  const k = m.languages.CompletionItemKind
  return {
    1: k.Text,
    2: k.Method,
    3: k.Function,
    4: k.Constructor,
    5: k.Field,
    6: k.Variable,
    7: k.Class,
    8: k.Interface,
    9: k.Module,
    10: k.Property,
    11: k.Unit,
    12: k.Value,
    13: k.Enum,
    14: k.Keyword,
    15: k.Snippet,
    16: k.Color,
    17: k.File,
    18: k.Reference,
    19: k.Folder,
    20: k.EnumMember,
    21: k.Constant,
    22: k.Struct,
    23: k.Event,
    24: k.Operator,
    25: k.TypeParameter,
  }
}

function markerSeverity(m: MonacoApi, severity: Lsp.DiagnosticSeverity | undefined): Monaco.MarkerSeverity {
  if (severity === 2) return m.MarkerSeverity.Warning
  if (severity === 3) return m.MarkerSeverity.Info
  if (severity === 4) return m.MarkerSeverity.Hint
  return m.MarkerSeverity.Error
}

/** The markers of one document from its diagnostics. */
export function markersOf(m: MonacoApi, diagnostics: readonly Lsp.Diagnostic[]): Monaco.editor.IMarkerData[] {
  return diagnostics.map((d) => ({
    ...toRange(d.range),
    severity: markerSeverity(m, d.severity),
    message: String(d.message),
    ...(d.source ? { source: d.source } : {}),
    ...(d.code !== undefined ? { code: String(d.code) } : {}),
    tags: (d.tags ?? []).map((t) => (t === 1 ? m.MarkerTag.Unnecessary : m.MarkerTag.Deprecated)),
  }))
}

/**
 * The Monaco URI that shows `path`: the model of its open document, or a preview model made from
 * the file on disk (so peek views and "go to" have text to show), or a plain file URI.
 */
async function uriFor(m: MonacoApi, target: Target, path: string): Promise<Monaco.Uri> {
  const open = target.editor.bufferOf(path)
  if (open) return open.model.uri
  const existing = previews.get(path)
  if (existing && !existing.isDisposed()) return existing.uri
  const uri = m.Uri.parse(uriOfPath(path))
  try {
    const text = new TextDecoder().decode(await target.editor.read(path))
    const model = m.editor.getModel(uri) ?? m.editor.createModel(text, undefined, uri)
    previews.set(path, model)
    if (previews.size > maxPreviews) {
      const [oldest, model] = previews.entries().next().value as [string, Monaco.editor.ITextModel]
      previews.delete(oldest)
      model.dispose()
    }
    return model.uri
  } catch {
    return uri
  }
}

/** Where a Monaco URI points in the sandbox: an open document's path, or a file URI's. */
function pathOf(uri: Monaco.Uri): string | undefined {
  const target = targets.get(uri.toString())
  return target ? target.path : pathOfUri(uri.toString())
}

async function locations(
  m: MonacoApi,
  target: Target,
  result: Lsp.Location | Lsp.Location[] | Lsp.LocationLink[] | null | undefined,
): Promise<Monaco.languages.Location[]> {
  const list = result === null || result === undefined ? [] : Array.isArray(result) ? result : [result]
  const out: Monaco.languages.Location[] = []
  for (const item of list) {
    const uri = 'targetUri' in item ? item.targetUri : item.uri
    const range = 'targetUri' in item ? item.targetSelectionRange : item.range
    const path = pathOfUri(uri)
    if (path === undefined) continue
    out.push({ uri: await uriFor(m, target, path), range: toRange(range) })
  }
  return out
}

/** The target of a model, if it is an open document of a served language. */
const targetOf = (model: Monaco.editor.ITextModel) => targets.get(model.uri.toString())

function request<R>(model: Monaco.editor.ITextModel, method: string, params: (uri: string) => unknown) {
  const target = targetOf(model)
  return target ? target.service.request<R>(target.path, method, params) : Promise.resolve(undefined)
}

/** The LSP item a Monaco completion was made from, for `completionItem/resolve`. */
interface ServedCompletion extends Monaco.languages.CompletionItem {
  lsp: Lsp.CompletionItem
  model: Monaco.editor.ITextModel
}

function completion(
  m: MonacoApi,
  model: Monaco.editor.ITextModel,
  item: Lsp.CompletionItem,
  wordRange: Monaco.IRange,
): ServedCompletion {
  const edit = item.textEdit
  const range = edit ? ('range' in edit ? toRange(edit.range) : toRange(edit.replace)) : wordRange
  const snippet = item.insertTextFormat === 2
  return {
    label: item.labelDetails ? { label: item.label, ...item.labelDetails } : item.label,
    kind: completionKinds(m)[item.kind ?? 1] ?? m.languages.CompletionItemKind.Text,
    ...(item.detail ? { detail: item.detail } : {}),
    ...(item.documentation ? { documentation: markdown(item.documentation)[0] ?? '' } : {}),
    insertText: edit?.newText ?? item.insertText ?? item.label,
    ...(snippet ? { insertTextRules: m.languages.CompletionItemInsertTextRule.InsertAsSnippet } : {}),
    range,
    ...(item.sortText ? { sortText: item.sortText } : {}),
    ...(item.filterText ? { filterText: item.filterText } : {}),
    ...(item.preselect ? { preselect: true } : {}),
    ...(item.commitCharacters ? { commitCharacters: item.commitCharacters } : {}),
    ...(item.additionalTextEdits
      ? {
          additionalTextEdits: item.additionalTextEdits.map((e) => ({
            range: toRange(e.range),
            text: e.newText,
          })),
        }
      : {}),
    lsp: item,
    model,
  }
}

/** What applies a server's WorkspaceEdit: open files in their buffers, other files on disk. */
export type ApplyEdit = (edit: Lsp.WorkspaceEdit) => Promise<boolean>

let registered: Monaco.IDisposable[] | undefined

/**
 * Registers the providers with Monaco, once per page: every language, answered for the models of
 * open documents (`serve`) by the server of their language, nothing for any other model.
 */
export function registerLanguageFeatures(
  m: MonacoApi,
  applyEdit: (target: Target, edit: Lsp.WorkspaceEdit) => Promise<boolean>,
): void {
  if (registered) return
  // Every language of an open file's model (see modelScheme).
  const all = { language: '*', scheme: modelScheme }
  const l = m.languages
  registered = [
    l.registerCompletionItemProvider(all, {
      triggerCharacters: ['.', ':', '"', "'", '/', '@', '<', '(', ' '],
      async provideCompletionItems(model, position, context) {
        const word = model.getWordUntilPosition(position)
        const wordRange = {
          startLineNumber: position.lineNumber,
          endLineNumber: position.lineNumber,
          startColumn: word.startColumn,
          endColumn: word.endColumn,
        }
        const result = await request<Lsp.CompletionList | Lsp.CompletionItem[]>(
          model,
          'textDocument/completion',
          (uri) => ({
            textDocument: { uri },
            position: toPosition(position),
            context: {
              triggerKind: context.triggerKind + 1,
              ...(context.triggerCharacter ? { triggerCharacter: context.triggerCharacter } : {}),
            },
          }),
        )
        if (!result) return undefined
        const items = Array.isArray(result) ? result : result.items
        return {
          suggestions: items.map((item) => completion(m, model, item, wordRange)),
          incomplete: !Array.isArray(result) && result.isIncomplete,
        }
      },
      async resolveCompletionItem(item) {
        const served = item as ServedCompletion
        const target = targetOf(served.model)
        if (!target?.service.capabilities(target.path)?.completionProvider?.resolveProvider) return item
        const resolved = await target.service.request<Lsp.CompletionItem>(
          target.path,
          'completionItem/resolve',
          () => served.lsp,
        )
        if (!resolved) return item
        const more = completion(
          m,
          served.model,
          { ...served.lsp, ...resolved },
          served.range as Monaco.IRange,
        )
        return { ...item, ...more, range: item.range, insertText: item.insertText }
      },
    }),
    l.registerHoverProvider(all, {
      async provideHover(model, position) {
        const hover = await request<Lsp.Hover>(model, 'textDocument/hover', (uri) => ({
          textDocument: { uri },
          position: toPosition(position),
        }))
        if (!hover) return undefined
        const contents = Array.isArray(hover.contents)
          ? hover.contents.flatMap((c) => markdown(c))
          : markdown(hover.contents)
        return { contents, ...(hover.range ? { range: toRange(hover.range) } : {}) }
      },
    }),
    l.registerSignatureHelpProvider(all, {
      signatureHelpTriggerCharacters: ['(', ','],
      signatureHelpRetriggerCharacters: [')'],
      async provideSignatureHelp(model, position) {
        const help = await request<Lsp.SignatureHelp>(model, 'textDocument/signatureHelp', (uri) => ({
          textDocument: { uri },
          position: toPosition(position),
        }))
        if (!help?.signatures.length) return undefined
        return {
          value: {
            signatures: help.signatures.map((s) => ({
              label: s.label,
              ...(s.documentation ? { documentation: markdown(s.documentation)[0] ?? '' } : {}),
              parameters: (s.parameters ?? []).map((p) => ({
                label: p.label,
                ...(p.documentation ? { documentation: markdown(p.documentation)[0] ?? '' } : {}),
              })),
              ...(s.activeParameter !== undefined && s.activeParameter !== null
                ? { activeParameter: s.activeParameter }
                : {}),
            })),
            activeSignature: help.activeSignature ?? 0,
            activeParameter: help.activeParameter ?? 0,
          },
          dispose() {},
        }
      },
    }),
    l.registerDefinitionProvider(all, {
      async provideDefinition(model, position) {
        const target = targetOf(model)
        if (!target) return undefined
        const result = await request<Lsp.Location | Lsp.Location[] | Lsp.LocationLink[]>(
          model,
          'textDocument/definition',
          (uri) => ({
            textDocument: { uri },
            position: toPosition(position),
          }),
        )
        return locations(m, target, result)
      },
    }),
    l.registerTypeDefinitionProvider(all, {
      async provideTypeDefinition(model, position) {
        const target = targetOf(model)
        if (!target) return undefined
        const result = await request<Lsp.Location | Lsp.Location[] | Lsp.LocationLink[]>(
          model,
          'textDocument/typeDefinition',
          (uri) => ({
            textDocument: { uri },
            position: toPosition(position),
          }),
        )
        return locations(m, target, result)
      },
    }),
    l.registerReferenceProvider(all, {
      async provideReferences(model, position, context) {
        const target = targetOf(model)
        if (!target) return undefined
        const result = await request<Lsp.Location[]>(model, 'textDocument/references', (uri) => ({
          textDocument: { uri },
          position: toPosition(position),
          context: { includeDeclaration: context.includeDeclaration },
        }))
        return locations(m, target, result)
      },
    }),
    l.registerRenameProvider(all, {
      async resolveRenameLocation(model, position) {
        const target = targetOf(model)
        if (!target?.service.capabilities(target.path)?.renameProvider)
          return { range: new m.Range(1, 1, 1, 1), text: '', rejectReason: 'Nothing to rename here' }
        const result = await request<Lsp.PrepareRenameResult>(model, 'textDocument/prepareRename', (uri) => ({
          textDocument: { uri },
          position: toPosition(position),
        }))
        const word = model.getWordAtPosition(position)
        if (!result) {
          if (!word)
            return { range: new m.Range(1, 1, 1, 1), text: '', rejectReason: 'Nothing to rename here' }
          return {
            range: new m.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn),
            text: word.word,
          }
        }
        if ('range' in result) return { range: toRange(result.range), text: result.placeholder }
        if ('start' in result) return { range: toRange(result), text: model.getValueInRange(toRange(result)) }
        return word
          ? {
              range: new m.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn),
              text: word.word,
            }
          : { range: new m.Range(1, 1, 1, 1), text: '', rejectReason: 'Nothing to rename here' }
      },
      async provideRenameEdits(model, position, newName) {
        const target = targetOf(model)
        if (!target) return undefined
        const edit = await request<Lsp.WorkspaceEdit>(model, 'textDocument/rename', (uri) => ({
          textDocument: { uri },
          position: toPosition(position),
          newName,
        }))
        if (!edit)
          return { edits: [], rejectReason: `${target.path}: the language server did not rename this` }
        // Applied here, across files (open ones in their buffers, unsaved; others written), so Monaco
        // has nothing left to do: it can edit only the models it has.
        const applied = await applyEdit(target, edit)
        return applied
          ? { edits: [] }
          : { edits: [], rejectReason: 'The rename could not be applied to every file' }
      },
    }),
    l.registerDocumentFormattingEditProvider(all, {
      async provideDocumentFormattingEdits(model, options) {
        const edits = await request<Lsp.TextEdit[]>(model, 'textDocument/formatting', (uri) => ({
          textDocument: { uri },
          options: { tabSize: options.tabSize, insertSpaces: options.insertSpaces },
        }))
        return edits?.map((e) => ({ range: toRange(e.range), text: e.newText }))
      },
    }),
    l.registerDocumentSymbolProvider(all, {
      async provideDocumentSymbols(model) {
        const result = await request<Lsp.DocumentSymbol[] | Lsp.SymbolInformation[]>(
          model,
          'textDocument/documentSymbol',
          (uri) => ({
            textDocument: { uri },
          }),
        )
        if (!result) return undefined
        const symbol = (s: Lsp.DocumentSymbol): Monaco.languages.DocumentSymbol => ({
          name: s.name,
          detail: s.detail ?? '',
          kind: (s.kind - 1) as Monaco.languages.SymbolKind,
          tags: [],
          range: toRange(s.range),
          selectionRange: toRange(s.selectionRange),
          children: (s.children ?? []).map(symbol),
        })
        return result.map((s) =>
          'location' in s
            ? {
                name: s.name,
                detail: '',
                kind: (s.kind - 1) as Monaco.languages.SymbolKind,
                tags: [],
                range: toRange(s.location.range),
                selectionRange: toRange(s.location.range),
              }
            : symbol(s),
        )
      },
    }),
    l.registerCodeActionProvider(all, {
      async provideCodeActions(model, range, context) {
        const target = targetOf(model)
        if (!target?.service.capabilities(target.path)?.codeActionProvider) return undefined
        const diagnostics = context.markers.map((marker) => ({
          range: fromRange(marker),
          message: marker.message,
          severity: (marker.severity === m.MarkerSeverity.Error
            ? 1
            : marker.severity === m.MarkerSeverity.Warning
              ? 2
              : 3) as Lsp.DiagnosticSeverity,
          ...(marker.code ? { code: typeof marker.code === 'string' ? marker.code : marker.code.value } : {}),
          ...(marker.source ? { source: marker.source } : {}),
        }))
        const result = await request<(Lsp.CodeAction | Lsp.Command)[]>(
          model,
          'textDocument/codeAction',
          (uri) => ({
            textDocument: { uri },
            range: fromRange(range),
            context: { diagnostics, ...(context.only ? { only: [context.only] } : {}) },
          }),
        )
        if (!result) return undefined
        return {
          actions: result.map((action) => ({
            title: action.title,
            ...('kind' in action && action.kind ? { kind: action.kind } : {}),
            ...('isPreferred' in action && action.isPreferred ? { isPreferred: true } : {}),
            command: { id: runCodeAction, title: action.title, arguments: [target, action] },
          })),
          dispose() {},
        }
      },
    }),
    m.editor.registerCommand(
      runCodeAction,
      async (_accessor, target: Target, action: Lsp.CodeAction | Lsp.Command) => {
        let chosen = action
        if (
          !('command' in chosen && typeof chosen.command === 'string') &&
          !('edit' in chosen && chosen.edit)
        ) {
          const resolved = await target.service.request<Lsp.CodeAction>(
            target.path,
            'codeAction/resolve',
            () => chosen,
          )
          if (resolved) chosen = resolved
        }
        if ('edit' in chosen && chosen.edit) await applyEdit(target, chosen.edit)
        const command =
          typeof chosen.command === 'string' ? (chosen as Lsp.Command) : (chosen as Lsp.CodeAction).command
        if (command)
          await target.service.request(target.path, 'workspace/executeCommand', () => ({
            command: command.command,
            arguments: command.arguments,
          }))
      },
    ),
    m.editor.registerEditorOpener({
      openCodeEditor(_source, resource, selectionOrPosition) {
        const path = pathOf(resource)
        const target = [...targets.values()][0]
        if (path === undefined || !target) return false
        const at = selectionOrPosition
          ? 'startLineNumber' in selectionOrPosition
            ? {
                startLine: selectionOrPosition.startLineNumber,
                startColumn: selectionOrPosition.startColumn,
                endLine: selectionOrPosition.endLineNumber,
                endColumn: selectionOrPosition.endColumn,
              }
            : {
                startLine: selectionOrPosition.lineNumber,
                startColumn: selectionOrPosition.column,
                endLine: selectionOrPosition.lineNumber,
                endColumn: selectionOrPosition.column,
              }
          : undefined
        void target.editor.open(path, at)
        return true
      },
    }),
  ]
}

/** The Monaco command a code action runs: resolves it, applies its edit, runs its command. */
const runCodeAction = 'sandbox-ide.runCodeAction'
