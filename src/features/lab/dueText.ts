import type { DueView } from '../../contract/deadlines'

/** Where the student stands: before the deadline, after it with late work taken, or closed. */
export type DueStanding = 'open' | 'late' | 'closed'

const minute = 60_000
/** Closer than this, the time left is counted in hours and minutes; further, the day and time are said. */
const countedBelowMs = 12 * 60 * minute

/** "2 h 13 min", "45 min", "less than a minute". */
function left(ms: number): string {
  const minutes = Math.floor(ms / minute)
  if (minutes < 1) return 'less than a minute'
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`
}

const startOfDay = (ms: number) => {
  const day = new Date(ms)
  day.setHours(0, 0, 0, 0)
  return day.getTime()
}

/** "today 17:00", "tomorrow 17:00", "Friday 17:00", "3 Jun 17:00", in the page's time zone and language. */
function dayAndTime(due: number, now: number, locale?: string): string {
  const time = new Date(due).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
  const days = Math.round((startOfDay(due) - startOfDay(now)) / (24 * 60 * minute))
  if (days === 0) return `today ${time}`
  if (days === 1) return `tomorrow ${time}`
  const day = new Date(due).toLocaleDateString(
    locale,
    days < 7 ? { weekday: 'long' } : { day: 'numeric', month: 'short' },
  )
  return `${day} ${time}`
}

/**
 * The lab panel's line about the deadline, in words (never colour alone): "Due in 2 h 13 min",
 * "Due tomorrow 17:00", "Past due: late submissions lose 10% a day", "Closed: the deadline has
 * passed"; undefined when the class has no deadline. `now` is the stack's time.
 */
export function dueText(
  due: DueView,
  now: number,
  locale?: string,
): { text: string; standing: DueStanding } | undefined {
  if (due.dueAt === null) return undefined
  const at = Date.parse(due.dueAt)
  const yours = due.extended ? ' (your extension)' : ''
  const exam = due.examMode ? ' Your sandbox closes then.' : ''
  if (now < at) {
    const when = at - now < countedBelowMs ? `in ${left(at - now)}` : dayAndTime(at, now, locale)
    return { text: `Due ${when}${yours}.${exam}`, standing: 'open' }
  }
  if (due.late.kind === 'late' && !due.examMode)
    return {
      text: `Past due: late submissions lose ${due.late.penaltyPercentPerDay}% a day.`,
      standing: 'late',
    }
  if (due.late.kind === 'late')
    return {
      text: `Past due: your sandbox is closed; late submissions lose ${due.late.penaltyPercentPerDay}% a day.`,
      standing: 'late',
    }
  return { text: 'Closed: the deadline has passed.', standing: 'closed' }
}
