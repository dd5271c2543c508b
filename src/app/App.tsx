import { EmptyState } from './EmptyState'

/** The application shell: a title bar over the workbench area. */
export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <h1 className="app-title">Sandbox IDE</h1>
      </header>
      <main className="app-main" aria-label="Workbench">
        <EmptyState />
      </main>
    </div>
  )
}
