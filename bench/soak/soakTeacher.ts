// The teacher through the day: the class's dashboard open (it asks for the class every 3 s, as
// its page does), "Run the check for everyone" now and then, and a student paused when asked.
import type { LocalStack } from '../../e2e/localStack'
import type { ClassCheckAnswer, ClassView } from '../../src/contract/ideApiTypes'
import type { SoakErrors } from './soakErrors'

const dashboardEveryMs = 3_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

export class SoakTeacher {
  checks = 0
  dashboardLooks = 0
  /** Sandboxes being paused or resumed now: a check cut short by that is no error. */
  private readonly away = new Set<string>()
  /** Those that were away at some point during the check under way. */
  private readonly awayDuringCheck = new Set<string>()

  constructor(
    private readonly stack: LocalStack,
    private readonly className: string,
    private readonly errors: SoakErrors,
    private readonly random: () => number,
  ) {}

  /** A student's sandbox is being paused (by anyone), or is back. */
  markAway(sandboxId: string, away: boolean): void {
    if (away) {
      this.away.add(sandboxId)
      this.awayDuringCheck.add(sandboxId)
    } else this.away.delete(sandboxId)
  }

  /** Pauses one student's sandbox, as the dashboard's Pause on their row does. */
  async pause(sandboxId: string): Promise<void> {
    await this.call('POST', `/classes/${this.className}/pause`, { sandboxIds: [sandboxId] })
  }

  /** The dashboard and the checks until `until` (performance.now() time), a day of `dayMs`. */
  async teach(until: number, dayMs: number): Promise<void> {
    await Promise.all([this.watchDashboard(until), this.checkNowAndThen(until, dayMs)])
  }

  private async watchDashboard(until: number): Promise<void> {
    while (performance.now() < until) {
      try {
        await this.call('GET', `/classes/${this.className}`)
        this.dashboardLooks++
      } catch (err) {
        this.errors.add('teacher', 'looking at the dashboard', err)
      }
      await sleep(Math.min(dashboardEveryMs, until - performance.now()))
    }
  }

  /** About every five minutes, or three times in a short run. */
  private async checkNowAndThen(until: number, dayMs: number): Promise<void> {
    const every = Math.min(5 * 60_000, dayMs / 3)
    for (;;) {
      await sleep(Math.min(every * (0.7 + 0.6 * this.random()), until - performance.now()))
      if (performance.now() >= until) return
      try {
        await this.checkEveryone()
        this.checks++
      } catch (err) {
        this.errors.add('teacher', 'checking everyone', err)
      }
    }
  }

  /**
   * "Run the check for everyone", then the dashboard's verdicts: a check that could not run (not
   * one whose tests fail: the lab is unsolved) is an error, unless its sandbox was being paused.
   */
  private async checkEveryone(): Promise<void> {
    const startedAt = new Date().toISOString()
    this.awayDuringCheck.clear()
    for (const id of this.away) this.awayDuringCheck.add(id)
    const answer = await this.call<ClassCheckAnswer>('POST', `/classes/${this.className}/check`)
    if (answer.checked === 0) throw new Error(`the check ran in none of ${answer.students} sandboxes`)
    const view = await this.call<ClassView>('GET', `/classes/${this.className}`)
    for (const { student, sandboxId, check } of view.students) {
      if (!check || check.at < startedAt || check.passed !== null || this.awayDuringCheck.has(sandboxId))
        continue
      this.errors.add('teacher', `checking ${student}`, check.error)
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.stack.ideApi(method, path, body)
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} /ide/api${path} answered ${res.status}: ${text.slice(0, 200)}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
}
