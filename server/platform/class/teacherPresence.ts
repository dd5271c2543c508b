/** How long after the teacher's page last asked about a sandbox they count as there (it asks every 5 s). */
const presentForMs = 15_000

/**
 * Whether the teacher (the owner) has a student's sandbox open: their page asks for its session
 * every few seconds while it is open, and the student's page is told, so a student knows when
 * someone else sees their terminals and files.
 */
export class TeacherPresence {
  private readonly seen = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  /** The owner's page asked about this sandbox just now. */
  mark(sandboxId: string): void {
    this.seen.set(sandboxId, this.now())
  }

  here(sandboxId: string): boolean {
    const at = this.seen.get(sandboxId)
    if (at === undefined) return false
    if (this.now() - at <= presentForMs) return true
    this.seen.delete(sandboxId)
    return false
  }
}
