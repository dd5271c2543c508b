import type { SimilarityReport, SimilarSubmission } from '../../../src/contract/similarity'
import { sendJson } from '../api/httpJson'
import type { GradedSubmission } from '../class/grading/gradebook'
import { defaultSimilarityOptions, similarPairs } from '../class/grading/similarity/similarPairs'
import { startingFiles } from '../class/grading/submissionDetail'
import type { SubmissionStore } from '../class/grading/submissionStore'
import { PlatformError } from '../platformError'
import { readLabTemplate } from '../templates/labTemplate'
import type { TemplateCatalog } from '../templates/templateCatalog'
import type { ClassScope, ScopedPrefix } from './classScope'
import type { IdeRoute } from './ideRoute'

/** Each student's latest submission of the lab in the class (across their sandboxes). */
function latestOfEach(entries: readonly GradedSubmission[], scope: ClassScope, lab: string) {
  const latest = new Map<string, GradedSubmission['submission']>()
  for (const { submission: s } of entries) {
    if (!scope.holds(s) || s.templateID !== lab) continue
    const seen = latest.get(s.student)
    if (!seen || seen.submittedAt <= s.submittedAt) latest.set(s.student, s)
  }
  // By name, so a pair reads the same way every time (ada and ben, never ben and ada).
  return [...latest.values()].sort((x, y) => x.student.localeCompare(y.student))
}

/**
 * `GET [/remotes/{remoteId}]/classes/{name}/similar?lab=L[&limit=N]`: the most similar pairs of the students' latest
 * submissions of a lab, by token fingerprints with the lab's starting files and the class's
 * common code left out (server/platform/class/grading/similarity/). Pointers for the teacher to
 * read, never a verdict. The owner only: a student's or a guest's session gets 403.
 */
export function similarityRoutes(deps: {
  templates: Pick<TemplateCatalog, 'folder'>
  store: SubmissionStore
  /** Where the routes answer: the stack's own classes and the E2B remotes' (see classScope). */
  scopes: ScopedPrefix[]
}): IdeRoute[] {
  const { templates, store } = deps
  return deps.scopes.map(({ prefix, scopeOf }) => ({
    pattern: new RegExp(`^${prefix}/classes/([^/]+)/similar$`),
    methods: {
      GET: async (req, res, params) => {
        const { scope } = scopeOf(params)
        const className = scope.name
        const query = new URL(req.url ?? '', 'http://stack').searchParams
        const lab = query.get('lab')
        if (!lab) throw new PlatformError(400, 'say which lab: ?lab=…')
        const limit = Number(query.get('limit') ?? defaultSimilarityOptions.limit)
        if (!Number.isInteger(limit) || limit < 1 || limit > 500)
          throw new PlatformError(400, 'limit must be a whole number from 1 to 500')
        // The lab's starting files as they are now; a template gone leaves nothing to leave out.
        const templateDir = await templates.folder(lab).catch(() => undefined)
        const starting = templateDir
          ? await readLabTemplate(templateDir)
              .then((template) => startingFiles(templateDir, template))
              .catch(() => [])
          : []
        // Chosen after the last await, and compared without one: a submission the teacher
        // deletes meanwhile is either compared whole or not at all, never read half-gone.
        const chosen = latestOfEach(store.all(), scope, lab)
        if (chosen.length === 0)
          throw new PlatformError(404, `class '${className}' has no submissions of lab '${lab}'`)
        const byStudent = new Map(chosen.map((s) => [s.student, s]))
        const result = similarPairs(
          chosen.map((s) => ({ key: s.student, files: () => store.files(s) })),
          starting,
          { limit },
        )
        const side = (student: string): SimilarSubmission => {
          const s = byStudent.get(student)
          if (!s) throw new Error(`no submission of ${student}`)
          return { student, sandboxId: s.sandboxId, submissionId: s.id, submittedAt: s.submittedAt }
        }
        sendJson(res, 200, {
          className,
          lab,
          compared: chosen.length,
          k: defaultSimilarityOptions.k,
          w: defaultSimilarityOptions.w,
          ignored: result.ignored,
          skipped: result.skipped.map(({ key, path, why }) => ({ student: key, path, why })),
          pairs: result.pairs.map(({ a, b, score, jaccard, shared, regions }) => ({
            a: side(a),
            b: side(b),
            score,
            jaccard,
            shared,
            regions,
          })),
        } satisfies SimilarityReport)
      },
    },
  }))
}
