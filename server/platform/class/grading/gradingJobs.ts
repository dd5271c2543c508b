/** A submission's grading stopped because the submission was deleted meanwhile. */
export class GradingCancelled extends Error {
  constructor() {
    super('the submission was deleted while it was being graded')
  }
}

/** Which submission a grading is for. */
export interface GradedOne {
  sandboxId: string
  id: string
}

interface Job {
  controller: AbortController
  done: Promise<unknown>
}

const keyOf = ({ sandboxId, id }: GradedOne) => `${sandboxId}/${id}`

/**
 * The gradings under way (a Submit's, a regrade's), by submission, so that deleting a submission
 * can stop its grading: out of the graders' line if it waits, its grader sandbox killed if it
 * runs. One submission may be graded twice at once (a Submit's grading and a regrade).
 */
export class GradingJobs {
  private readonly jobs = new Map<string, Set<Job>>()

  /**
   * Runs `work` as a grading of `submission`, given the signal that `cancel` aborts. It is known
   * before this returns, so no deletion can come between the caller's check and the grading.
   */
  run<T>(submission: GradedOne, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const key = keyOf(submission)
    const controller = new AbortController()
    const done = (async () => work(controller.signal))()
    const job: Job = { controller, done }
    const jobs = this.jobs.get(key) ?? new Set<Job>()
    jobs.add(job)
    this.jobs.set(key, jobs)
    return done.finally(() => {
      jobs.delete(job)
      if (jobs.size === 0 && this.jobs.get(key) === jobs) this.jobs.delete(key)
    })
  }

  /**
   * Stops every grading of a submission and waits until each has ended (its grader sandbox
   * removed). Answers how many there were.
   */
  async cancel(submission: GradedOne): Promise<number> {
    const jobs = [...(this.jobs.get(keyOf(submission)) ?? [])]
    for (const { controller } of jobs) controller.abort(new GradingCancelled())
    await Promise.allSettled(jobs.map((job) => job.done))
    return jobs.length
  }

  /** How many gradings of a submission are under way (waiting for a grader, or running). */
  count(submission: GradedOne): number {
    return this.jobs.get(keyOf(submission))?.size ?? 0
  }
}
