/** Where open files are edited; until one is open, says how to get started. */
export function EditorArea() {
  return (
    <section className="panel editor-area" aria-label="Editor">
      <div className="empty-state">
        <h2>No file open</h2>
        <p>
          Use the terminal below, or press <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>P</kbd> for every command.
        </p>
      </div>
    </section>
  )
}
