import { z } from 'zod'
import { labManifestPath } from './labPaths'
import { parseLanguageOverrides } from './languageTable'

/** Relative to the home folder, and staying inside it: a lab never reaches elsewhere. */
function staysInHome(path: string): boolean {
  return (
    !path.startsWith('/') &&
    !path.split('/').includes('..') &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    !/[\u0000-\u001f]/.test(path)
  )
}

const inHome = 'must be relative to the home folder and stay in it (no leading /, no ..)'
const homePath = z.string().min(1).max(1024).refine(staysInHome, inHome)

/** Language servers in the shape of `.sandbox-ide/languages.json`, checked by that file's own reader. */
const languageOverrides = z.unknown().transform((value, ctx) => {
  const parsed = parseLanguageOverrides(value, 'languages')
  if (parsed.ok) return parsed.overrides
  for (const message of parsed.problems) ctx.addIssue({ code: 'custom', message })
  return z.NEVER
})

const labManifestSchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  /** Markdown shown in the lab panel. */
  instructions: homePath.optional(),
  /** Files opened in the editor when the lab opens, the first one shown. */
  open: z.array(homePath).max(20).default([]),
  /** Globs (see labGlob.ts) of paths the editor does not let the student change. */
  readOnly: z.array(homePath.max(256)).max(100).default([]),
  check: z
    .strictObject({
      /** Run by bash (a login shell) in the home folder; exit status 0 means passed. */
      command: z.string().trim().min(1).max(4096),
      timeoutSeconds: z.number().int().min(1).max(3600).default(60),
    })
    .optional(),
  /** How the stack grades a submission, in a fresh grader sandbox (see docs/classroom.md, Grading). */
  grade: z
    .strictObject({
      /** Globs of template files never copied into a student's sandbox: the stack keeps them for grading. */
      hidden: z.array(homePath.max(256)).max(100).default([]),
      /** Run by bash (a login shell) in the grader sandbox's home folder. */
      command: z.string().trim().min(1).max(4096),
      timeoutSeconds: z.number().int().min(1).max(3600).default(60),
      /** A JUnit XML file the command writes, read for per-test results; without it, exit status 0 is full marks. */
      report: homePath.optional(),
      /** Points per test (by its name in the report); every other test is worth 1. */
      points: z.record(z.string().min(1).max(256), z.number().min(0).max(1000)).default({}),
      /** What a student sees of the results: each test's name and message, names only (the default: a message may give a hidden test's answer away), or the score alone. */
      feedback: z.enum(['messages', 'names', 'score']).default('names'),
    })
    .optional(),
  /** A port of the sandbox to show beside the code (a web-development lab: edit, save, see). */
  preview: z
    .strictObject({
      port: z.number().int().min(1).max(65535),
      path: z.string().max(1024).startsWith('/').default('/'),
    })
    .optional(),
  /** `false`: no reset. `paths`: only these starting files and folders come back. */
  reset: z
    .union([z.literal(false), z.strictObject({ paths: z.array(homePath).min(1).max(100).optional() })])
    .default({}),
  /** `false` turns code intelligence off for the lab's students (an exam); on by default. */
  codeIntelligence: z.boolean().default(true),
  /** Language servers to add, change or turn off; they win over the student's own languages file. */
  languages: languageOverrides.optional(),
})

/** A lab as its manifest describes it. */
export type LabManifest = z.infer<typeof labManifestSchema>

/** A manifest that is not JSON or not a lab, with every problem in words. */
export class LabManifestError extends Error {}

/** Reads a manifest's text; throws LabManifestError saying what is wrong. */
export function parseLabManifest(text: string): LabManifest {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new LabManifestError(
      `${labManifestPath} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    )
  }
  const result = labManifestSchema.safeParse(json)
  if (!result.success) {
    throw new LabManifestError(`${labManifestPath} is not a valid lab:\n${z.prettifyError(result.error)}`)
  }
  return result.data
}
