import { z } from 'zod'
import { type ClassDeadline, noDeadline } from '../../../src/contract/deadlines'
import {
  type Gradebook,
  gradebookCsv,
  type RegradeAnswer,
  type SubmissionDetail,
} from '../../../src/contract/gradebook'
import { readJsonBody, sendJson } from '../api/httpJson'
import { gradebookOf } from '../class/grading/gradebook'
import type { Graders } from '../class/grading/graders'
import { gradeSubmission } from '../class/grading/gradeSubmission'
import { GradingCancelled, type GradingJobs } from '../class/grading/gradingJobs'
import { localGraders } from '../class/grading/localGraders'
import { regrade } from '../class/grading/regrade'
import { remoteGraders } from '../class/grading/remoteGraders'
import { startingFiles, submissionDetail } from '../class/grading/submissionDetail'
import type { Submission, SubmissionStore } from '../class/grading/submissionStore'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { readLabTemplate } from '../templates/labTemplate'
import type { TemplateCatalog } from '../templates/templateCatalog'
import type { ClassScope, ScopedPrefix } from './classScope'
import type { IdeRoute } from './ideRoute'
import type { RemoteStore } from './remoteStore'
import { deleteSubmission } from './submissionDeleteRoutes'

const regradeBody = z.strictObject({ lab: z.string().min(1).max(64).optional() })

/**
 * The teacher's gradebook of a class, of the stack's own or on E2B (`/remotes/{remoteId}/classes/…`,
 * with only that remote's submissions and E2B's list of its students); the owner only: no
 * student's or guest's sign-in reaches these. Every student's counted score per lab, as JSON or CSV; one submission
 * in full (files, grader output, diff against the starting files); and regrading every stored
 * submission after the lab's tests changed. Submissions outlive their sandboxes, so a class that
 * has ended still has its gradebook.
 */
export function gradebookRoutes(deps: {
  manager: SandboxManager
  templates: Pick<TemplateCatalog, 'folder'>
  store: SubmissionStore
  /** The gradings under way, which deleting a submission stops. */
  gradings: GradingJobs
  /** A class's deadline and which submission counts (its `counts`); none, and the best, when absent. */
  deadlineOf?: (className: string) => ClassDeadline
  /** The E2B remotes on which their submissions are graded again. */
  remotes?: Pick<RemoteStore, 'get'>
  /** Where the routes answer: the stack's own classes and the E2B remotes' (see classScope). */
  scopes: ScopedPrefix[]
}): IdeRoute[] {
  const { manager, templates, store, gradings } = deps
  /** Where a submission is graded: where its sandbox was (a remote gone since is a 404, and a failed regrade). */
  const gradersOf = (s: Submission): Graders => {
    if (!s.remoteId) return localGraders(manager)
    if (!deps.remotes) throw new PlatformError(404, `no E2B remote '${s.remoteId}': add it again`)
    return remoteGraders(deps.remotes.get(s.remoteId))
  }
  const deadlineOf = deps.deadlineOf ?? (() => noDeadline)
  const regrading = new Set<string>()

  /** Whether a template is a graded lab, asked once per template per request. */
  const gradedLabs = () => {
    const known = new Map<string, Promise<boolean>>()
    return (templateID: string) => {
      let graded = known.get(templateID)
      if (!graded) {
        graded = templates
          .folder(templateID)
          .then(async (dir) => Boolean(dir && (await readLabTemplate(dir)).manifest?.grade))
          .catch(() => false)
        known.set(templateID, graded)
      }
      return graded
    }
  }

  const gradebook = async (scope: ClassScope): Promise<Gradebook> => {
    const sandboxes = await scope.members()
    const submissions = store.all().filter((e) => scope.holds(e.submission))
    if (sandboxes.length === 0 && submissions.length === 0) throw scope.missing()
    const isGraded = gradedLabs()
    const members = []
    for (const m of sandboxes) {
      // Its lab: the first of its template's names that is a graded lab of the stack's.
      let lab: string | undefined
      for (const name of m.templates) if (!lab && (await isGraded(name))) lab = name
      if (lab) members.push({ student: m.metadata.student ?? m.sandboxId, lab })
    }
    return gradebookOf(scope.name, submissions, members, deadlineOf(scope.name))
  }

  const routesAt = ({ prefix, scopeOf }: ScopedPrefix): IdeRoute[] => [
    {
      pattern: new RegExp(`^${prefix}/classes/([^/]+)/grades$`),
      methods: {
        GET: async (req, res, params) => {
          const { scope } = scopeOf(params)
          const name = scope.name
          const format = new URL(req.url ?? '', 'http://stack').searchParams.get('format') ?? 'json'
          if (format !== 'json' && format !== 'csv')
            throw new PlatformError(400, `format must be json or csv, not '${format}'`)
          const book = await gradebook(scope)
          if (format === 'json') return sendJson(res, 200, book satisfies Gradebook)
          const csv = gradebookCsv(book)
          res.writeHead(200, {
            'Content-Type': 'text/csv; charset=utf-8; header=present',
            'Content-Length': Buffer.byteLength(csv),
            'Content-Disposition': `attachment; filename="grades-${name}.csv"`,
            'Cache-Control': 'no-store',
          })
          res.end(csv)
        },
      },
    },
    {
      pattern: new RegExp(`^${prefix}/classes/([^/]+)/submissions/([^/]+)/([^/]+)$`),
      methods: {
        GET: async (_req, res, params) => {
          const { scope, rest } = scopeOf(params)
          const entry = store.get(decodeURIComponent(rest[0] ?? ''), decodeURIComponent(rest[1] ?? ''))
          if (!entry || !scope.holds(entry.submission))
            throw new PlatformError(404, `class '${scope.name}' has no such submission`)
          // The lab as it is now; a template gone or unreadable leaves a diff against nothing.
          const templateDir = await templates.folder(entry.submission.templateID).catch(() => undefined)
          const starting = templateDir
            ? await readLabTemplate(templateDir)
                .then((lab) => startingFiles(templateDir, lab))
                .catch(() => [])
            : []
          sendJson(
            res,
            200,
            submissionDetail(entry, store.files(entry.submission), starting) satisfies SubmissionDetail,
          )
        },
        DELETE: deleteSubmission({ store, gradings }, scopeOf),
      },
    },
    {
      pattern: new RegExp(`^${prefix}/classes/([^/]+)/regrade$`),
      methods: {
        POST: async (req, res, params) => {
          const { scope } = scopeOf(params)
          const name = scope.name
          const { lab } = await readJsonBody(req, regradeBody, { optional: true })
          const chosen = store
            .all()
            .filter((e) => scope.holds(e.submission) && (!lab || e.submission.templateID === lab))
          if (chosen.length === 0)
            throw new PlatformError(
              404,
              `class '${name}' has no submissions${lab ? ` of lab '${lab}'` : ''} on this stack`,
            )
          if (regrading.has(name)) throw new PlatformError(409, `class '${name}' is being regraded already`)
          regrading.add(name)
          try {
            const answer = await regrade(chosen, {
              // Checked, read and known as graded in one go: a deletion comes before or cancels it.
              grade: async (s) => {
                if (!store.has(s.sandboxId, s.id)) return undefined
                return gradings
                  .run(s, (signal) =>
                    gradeSubmission(
                      { graders: gradersOf(s), templates },
                      s.templateID,
                      store.files(s),
                      signal,
                    ),
                  )
                  .catch((err: unknown) => {
                    if (err instanceof GradingCancelled) return undefined
                    throw err
                  })
              },
              setGrade: (s, grade) => store.setGrade(s, grade),
            })
            sendJson(res, 200, answer satisfies RegradeAnswer)
          } finally {
            regrading.delete(name)
          }
        },
      },
    },
  ]
  return deps.scopes.flatMap(routesAt)
}
