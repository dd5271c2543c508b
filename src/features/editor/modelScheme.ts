/**
 * The URI scheme of the models of open files (TextBuffer). Language features register for it,
 * which ranks them above Monaco's own word-based completions (registered for every model): those
 * then come only when a server has nothing, as in VS Code, not merged into every list after a
 * wait on Monaco's worker.
 */
export const modelScheme = 'sandbox'
