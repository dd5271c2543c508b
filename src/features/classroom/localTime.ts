/** An ISO time as a `datetime-local` input's value, in the page's time zone ("2026-03-01T17:00"). */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** A `datetime-local` input's value (the page's time zone) as ISO; undefined when empty or not a time. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined
  const ms = new Date(value).getTime()
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}

/** A deadline as the teacher reads it: "Mon 2 Mar, 17:00". */
export const dueWhen = (iso: string) =>
  new Date(iso).toLocaleString([], {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  })
