// What went wrong during a soak: counted, never thrown, so one student's trouble does not end the
// day for the others; the first few messages are kept to say what it was.

const keptMessages = 5

export class SoakErrors {
  private total = 0
  private readonly kept: string[] = []

  /** Counts one error of `who` (a student, the teacher) while doing `what`. */
  add(who: string, what: string, err: unknown): void {
    this.total++
    const message = err instanceof Error ? err.message : String(err)
    if (this.kept.length < keptMessages) this.kept.push(`${who}: ${what}: ${message}`)
  }

  get count(): number {
    return this.total
  }

  /** The first messages, in the order they came. */
  get first(): readonly string[] {
    return this.kept
  }
}
