import type { ClientCapabilities, SymbolKind } from 'vscode-languageserver-protocol'

/**
 * What the IDE can do with what a server offers (LSP's ClientCapabilities). A module of its own so
 * that the bench's plain stdio client says exactly what the IDE says.
 */
export const clientCapabilities: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true },
    didChangeWatchedFiles: { dynamicRegistration: false },
    configuration: true,
    workspaceFolders: true,
    diagnostics: { refreshSupport: true },
    // Go to Symbol in Workspace: every kind has its icon; a symbol may come with its file only.
    symbol: {
      dynamicRegistration: false,
      symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind) },
      tagSupport: { valueSet: [1] },
      resolveSupport: { properties: ['location.range'] },
    },
  },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    completion: {
      completionItem: {
        snippetSupport: true,
        documentationFormat: ['markdown', 'plaintext'],
        resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] },
        insertReplaceSupport: false,
        labelDetailsSupport: true,
      },
      contextSupport: true,
    },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    signatureHelp: {
      signatureInformation: { documentationFormat: ['markdown', 'plaintext'], activeParameterSupport: true },
      contextSupport: true,
    },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    references: {},
    rename: { prepareSupport: true },
    formatting: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.organizeImports'] },
      },
      resolveSupport: { properties: ['edit'] },
    },
  },
}
