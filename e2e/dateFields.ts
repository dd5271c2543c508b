import type { Page } from '@playwright/test'

/** A time as a `datetime-local` field takes it, in the page's own time zone ("2026-03-01T17:00"). */
export const localInput = (on: Page, ms: number) =>
  on.evaluate((at) => {
    const d = new Date(at)
    const pad = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
  }, ms)

/** What the stack keeps of such a field's time: the page's reading of it, in UTC. */
export const isoOf = (on: Page, local: string) => on.evaluate((value) => new Date(value).toISOString(), local)
