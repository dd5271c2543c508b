/** A page-sized message while something the page needs is on its way. */
export function Splash({ text }: { text: string }) {
  return (
    <main className="splash" aria-label="Workbench">
      <p role="status">{text}</p>
    </main>
  )
}
