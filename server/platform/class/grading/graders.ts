import type { CommandOutcome } from '../sandboxCommands'
import type { Slots } from './graderSlots'
import type { SubmittedFile } from './submissionFiles'

/** What a grader sandbox starts with, besides its template's files. */
export interface GraderRequest {
  /** The lab's template, on the platform that makes the sandbox. */
  templateID: string
  /** How long the sandbox may live at most, should the stack fail to remove it (seconds). */
  timeoutSeconds: number
  /** The submitted files the grader uses (checked paths, none of the lab's own). */
  submitted: readonly SubmittedFile[]
  /** The lab's folder on the stack, whose hidden files are added last and win. */
  templateDir: string
  isHidden: (path: string) => boolean
}

/** A fresh grader sandbox, its home ready: what grading does in it. */
export interface GraderSandbox {
  readonly id: string
  /** Runs `command` by `bash -l -c` as the sandbox's user in its home, cut at `timeoutMs`. */
  run(command: string, timeoutMs: number): Promise<CommandOutcome>
  /**
   * The report the command wrote at `path` (relative to the home): a regular file inside the
   * home of at most `maxBytes`, else a ReportError saying which it is not.
   */
  readReport(path: string, maxBytes: number): Promise<Uint8Array>
  /** Removes the sandbox and everything in it. */
  kill(): Promise<void>
}

/**
 * Where grader sandboxes are made: the stack's own manager (localGraders), or the E2B remote a
 * class lives on (remoteGraders). One grading code path (gradeSubmission) runs on either.
 */
export interface Graders {
  /** How many graders of this place run at once; the others wait their turn. */
  readonly slots: Slots
  /**
   * A grader sandbox of the lab's template with no network out, marked as a grader, whose home
   * holds the template's files, then the submitted ones, then the hidden ones. Nothing is left
   * running when it fails.
   */
  create(request: GraderRequest): Promise<GraderSandbox>
}

/** No grader sandbox could be made (the platform refused, or could not be reached). */
export class GraderUnavailable extends Error {}
