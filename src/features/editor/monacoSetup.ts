// The editor's lazy chunk: Monaco's core with the features an IDE editor needs (not all of
// editor.main), every language's highlighting (each one loaded when first used), the JSON, CSS,
// HTML and TypeScript language services, and their workers bundled by Vite (`?worker`), never
// fetched from a CDN. Only loadMonaco.ts imports this file, with import().
import 'monaco-editor/features/bracketMatching/register'
import 'monaco-editor/features/caretOperations/register'
import 'monaco-editor/features/clipboard/register'
import 'monaco-editor/features/codeAction/register'
import 'monaco-editor/features/codicon/register'
import 'monaco-editor/features/comment/register'
import 'monaco-editor/features/contextmenu/register'
import 'monaco-editor/features/cursorUndo/register'
import 'monaco-editor/features/diffEditor/register'
import 'monaco-editor/features/find/register'
import 'monaco-editor/features/folding/register'
import 'monaco-editor/features/format/register'
import 'monaco-editor/features/gotoError/register'
import 'monaco-editor/features/gotoLine/register'
import 'monaco-editor/features/gotoSymbol/register'
import 'monaco-editor/features/documentSymbols/register'
import 'monaco-editor/features/hover/register'
import 'monaco-editor/features/indentation/register'
import 'monaco-editor/features/lineSelection/register'
import 'monaco-editor/features/linesOperations/register'
import 'monaco-editor/features/linkedEditing/register'
import 'monaco-editor/features/links/register'
import 'monaco-editor/features/multicursor/register'
import 'monaco-editor/features/parameterHints/register'
import 'monaco-editor/features/quickOutline/register'
import 'monaco-editor/features/readOnlyMessage/register'
import 'monaco-editor/features/referenceSearch/register'
import 'monaco-editor/features/rename/register'
import 'monaco-editor/features/smartSelect/register'
import 'monaco-editor/features/snippet/register'
import 'monaco-editor/features/suggest/register'
// The per-feature entry of suggest registers only its inline variant: the completion list itself
// (Ctrl+Space, trigger characters) is this controller, which editor.main imports by itself.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController'
import 'monaco-editor/features/toggleTabFocusMode/register'
import 'monaco-editor/features/unicodeHighlighter/register'
import 'monaco-editor/features/wordHighlighter/register'
import 'monaco-editor/features/wordOperations/register'
import 'monaco-editor/features/wordPartOperations/register'
import 'monaco-editor/basic-languages/monaco.contribution'
import 'monaco-editor/languages/features/css/register'
import 'monaco-editor/languages/features/html/register'
import 'monaco-editor/languages/features/json/register'
import 'monaco-editor/languages/features/typescript/register'
import * as monaco from 'monaco-editor/editor/editor.api'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import CssWorker from 'monaco-editor/language/css/css.worker?worker'
import HtmlWorker from 'monaco-editor/language/html/html.worker?worker'
import JsonWorker from 'monaco-editor/language/json/json.worker?worker'
import TsWorker from 'monaco-editor/language/typescript/ts.worker?worker'
import { javascriptDefaults, typescriptDefaults } from 'monaco-editor/languages/features/typescript/register'
import { TextBuffer } from './TextBuffer'

// Each worker is its own file, started only when a model of its language needs it.
globalThis.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    switch (label) {
      case 'json':
        return new JsonWorker()
      case 'css':
      case 'scss':
      case 'less':
        return new CssWorker()
      case 'html':
      case 'handlebars':
      case 'razor':
        return new HtmlWorker()
      case 'typescript':
      case 'javascript':
        return new TsWorker()
      default:
        return new EditorWorker()
    }
  },
}

export { monaco }

/**
 * Turns Monaco's own TypeScript and JavaScript service (a worker that sees one file at a time) off
 * or on. Monaco reads this once, when the first model of either language appears, so it is set
 * before: where the sandbox's TypeScript server answers (with the project's tsconfig and
 * node_modules), both at once would say everything twice.
 */
export function setBuiltInTypeScript(on: boolean): void {
  const modes = {
    completionItems: on,
    hovers: on,
    documentSymbols: on,
    definitions: on,
    references: on,
    documentHighlights: on,
    rename: on,
    diagnostics: on,
    documentRangeFormattingEdits: on,
    signatureHelp: on,
    onTypeFormattingEdits: on,
    codeActions: on,
    inlayHints: on,
  }
  typescriptDefaults.setModeConfiguration(modes)
  javascriptDefaults.setModeConfiguration(modes)
}

/** A buffer for a file's text; `reduced` turns off language features for big files. */
export function createTextBuffer(text: string, path: string, reduced: boolean): TextBuffer {
  return new TextBuffer(text, path, reduced)
}
