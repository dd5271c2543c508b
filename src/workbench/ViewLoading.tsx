/** A sidebar view whose code or model is on its way. */
export function ViewLoading({ title }: { title: string }) {
  return (
    <section className="panel" aria-label={title}>
      <p className="panel-message">Loading…</p>
    </section>
  )
}
