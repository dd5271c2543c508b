/** What the workbench shows before any sandbox is connected. */
export function EmptyState() {
  return (
    <section className="empty-state" aria-labelledby="empty-state-title">
      <h2 id="empty-state-title">No sandbox connected</h2>
      <p>
        Start the local stack with <code>npm start</code> to get a sandbox with a file explorer, an editor and
        terminals, or connect to an E2B sandbox.
      </p>
    </section>
  )
}
