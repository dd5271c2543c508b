import { IconButton } from './IconButton'
import { useNotices } from './notifications'

/** Errors and news, announced to screen readers, each dismissable. */
export function Notifications() {
  const notices = useNotices((s) => s.notices)
  const dismiss = useNotices((s) => s.dismiss)
  return (
    <section className="notices" aria-label="Notifications" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <span>{n.text}</span>
          <IconButton icon="close" label="Dismiss" onClick={() => dismiss(n.id)} />
        </div>
      ))}
    </section>
  )
}
