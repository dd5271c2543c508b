// `npm run class`: one sandbox per student from a template, on the local stack (or any E2B API).
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { Gradebook } from '../../src/contract/gradebook'
import { classPagePath } from '../../src/contract/idePaths'
import { IdeToken, ideTokenFileName } from '../platform/access/ideToken'
import {
  addRemote,
  classGrades,
  classGradesCsv,
  type DeadlineSettings,
  endClass,
  listClass,
  numberedStudents,
  type PlatformAccess,
  relinkStudent,
  type StudentSandbox,
  setClassDeadline,
  startClass,
} from './classroom'

const usage = `Usage: npm run class -- --template ID (--students N | --names a,b,c) [options]
       npm run class -- --list NAME | --end NAME
       npm run class -- --grades NAME [--csv]
       npm run class -- --new-link STUDENT --class NAME
       npm run class -- --class NAME --deadline TIME [--late refuse|PERCENT] [--counts best|last] [--exam]

Creates one sandbox per student from a template (a folder of labs/, e.g. python-basics) through
the platform API of a running stack (npm start), and prints each student's join link: it opens
that student's sandbox, and nothing else, in one browser (the first to open it). On another
machine's browser the stack must be reachable, e.g. npm start -- --host 0.0.0.0 --domain NAME,
and the links must name that address (--public-url https://NAME:8787).

A class larger than one machine runs on E2B: with --e2b-api-key (or --remote, a remote the stack
already holds) the sandboxes are made on E2B through the stack, which keeps the key; students'
browsers then reach their sandbox at E2B's domain, and the stack serves only the IDE, the links
and the dashboard.

Options:
  --template ID     template of every sandbox
  --students N      that many students: student-01, student-02, …
  --names a,b,c     the students' names instead
  --class NAME      name of the class, to list or end it later (default: the template's id)
  --timeout S       seconds before a sandbox pauses (default 14400: four hours)
  --list NAME       print the sandboxes of a class and their links (opened or not)
  --end NAME        kill every sandbox of a class (their files are deleted)
  --grades NAME     print the class's gradebook: each student's counted score per lab (the
                    best submission), attempts and last submission; kept after the class ends
  --csv             with --grades: the gradebook as CSV (student,lab,score,max,submitted_at,late),
                    the same file as the dashboard's Download CSV
  --new-link NAME   a new join link for that student of --class (the old ones stop working,
                    and so does the browser that opened them)
  --deadline TIME   the class's deadline, ISO 8601: 2026-06-01T17:00 (this machine's time) or
                    2026-06-01T17:00Z; 'none' for none. With --template, set as the class is made;
                    with --class alone, changed (the teacher's dashboard can change it too)
  --late P          after the deadline: 'refuse' submissions (the default), or a number: accept
                    them, marked late, losing P percent of their score for each started day
  --counts best|last  which on-time submission counts (default best)
  --exam            exam mode: a student's sandbox is paused at their deadline, and stays so
                    (the stack's own classes: not for a class on E2B)
  --e2b-api-key K   make the class on E2B with this key (kept by the stack, sent nowhere else)
  --e2b-api-url URL  E2B's API (default https://api.e2b.app), e.g. a self-hosted E2B
  --e2b-domain NAME  E2B's sandbox domain when it is not the API's (default: from --e2b-api-url)
  --remote ID       a remote the stack already holds (GET /ide/api/remotes), instead of the key
  --url URL         the stack (default: http://127.0.0.1:$PORT, or :8787)
  --public-url URL  where students' browsers reach the stack, for the links (default: --url)
  --api-key KEY     platform API key (default: $SANDBOX_API_KEY, or the key in the data folder)
  --data DIR        the stack's data folder, for its API key (default: $SANDBOX_DATA_DIR or .data)
  -h, --help        show this help
`

function fail(message: string): never {
  console.error(`npm run class: ${message}\n\n${usage}`)
  process.exit(2)
}

function apiKey(given: string | undefined, dataDir: string): string {
  const key = given ?? process.env.SANDBOX_API_KEY
  if (key) return key
  try {
    return readFileSync(join(dataDir, 'api-key'), 'utf8').trim()
  } catch {
    return fail(
      `no API key: pass --api-key, set SANDBOX_API_KEY, or start the stack once (it keeps one in ${dataDir})`,
    )
  }
}

/** The stack's IDE token when its data folder has one: it makes the students' join links. */
function ideToken(dataDir: string): { ideToken?: string } {
  return existsSync(join(dataDir, ideTokenFileName)) ? { ideToken: new IdeToken(dataDir).current() } : {}
}

function printTable(rows: StudentSandbox[]): void {
  const width = Math.max(7, ...rows.map((r) => r.student.length))
  console.log(`${'Student'.padEnd(width)}  Sandbox               Join link`)
  for (const row of rows) {
    const opened = row.joinedAt ? `  (opened ${row.joinedAt})` : ''
    console.log(`${row.student.padEnd(width)}  ${row.sandboxId.padEnd(20)}  ${row.ideUrl}${opened}`)
  }
}

/** The gradebook as a table for a terminal. */
function printGrades(book: Gradebook): void {
  if (book.rows.length === 0) {
    console.log(`Class '${book.className}' has no graded lab yet.`)
    return
  }
  const cells = book.rows.map((row) => {
    const c = row.counted
    const score =
      c?.score === undefined ? '—' : `${c.score} / ${c.maxScore}${c.problem ? ` (${c.problem})` : ''}`
    return [row.student, row.lab, score, String(row.attempts), row.lastSubmittedAt ?? '—']
  })
  const header = ['Student', 'Lab', `Score (${book.policy})`, 'Attempts', 'Last submitted']
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)))
  for (const line of [header, ...cells])
    console.log(
      line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
}

let values: ReturnType<typeof parseArgs>['values']
try {
  values = parseArgs({
    args: process.argv.slice(2),
    options: {
      template: { type: 'string' },
      students: { type: 'string' },
      names: { type: 'string' },
      class: { type: 'string' },
      timeout: { type: 'string' },
      list: { type: 'string' },
      end: { type: 'string' },
      grades: { type: 'string' },
      csv: { type: 'boolean' },
      'new-link': { type: 'string' },
      deadline: { type: 'string' },
      late: { type: 'string' },
      counts: { type: 'string' },
      exam: { type: 'boolean' },
      url: { type: 'string' },
      'public-url': { type: 'string' },
      'e2b-api-key': { type: 'string' },
      'e2b-api-url': { type: 'string' },
      'e2b-domain': { type: 'string' },
      remote: { type: 'string' },
      'api-key': { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values
} catch (err) {
  fail(err instanceof Error ? err.message : String(err))
}
const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined)
if (values.help) {
  console.log(usage)
  process.exit(0)
}

/** The deadline flags given, checked; undefined when none is. */
function deadlineFlags(): Partial<DeadlineSettings> | undefined {
  const changes: Partial<DeadlineSettings> = {}
  const deadline = text('deadline')
  if (deadline !== undefined) {
    if (deadline !== 'none' && Number.isNaN(Date.parse(deadline)))
      fail(`--deadline must be a time such as 2026-06-01T17:00, not '${deadline}'`)
    changes.deadline = deadline === 'none' ? null : new Date(deadline).toISOString()
  }
  const late = text('late')
  if (late !== undefined) {
    const percent = Number(late)
    if (late !== 'refuse' && !(late.trim() !== '' && percent >= 0 && percent <= 100))
      fail(`--late must be 'refuse' or a percent from 0 to 100, not '${late}'`)
    changes.late = late === 'refuse' ? { kind: 'refuse' } : { kind: 'late', penaltyPercentPerDay: percent }
  }
  const counts = text('counts')
  if (counts !== undefined) {
    if (counts !== 'best' && counts !== 'last') fail(`--counts must be best or last, not '${counts}'`)
    changes.counts = counts
  }
  if (values.exam) changes.examMode = true
  return Object.keys(changes).length > 0 ? changes : undefined
}

/** The class's deadline in a line. */
function deadlineLine(className: string, d: Awaited<ReturnType<typeof setClassDeadline>>): string {
  const late =
    d.late.kind === 'refuse' ? 'late work refused' : `late work loses ${d.late.penaltyPercentPerDay}% a day`
  return `Class '${className}': ${d.deadline ? `due ${d.deadline}` : 'no deadline'}, ${late}, the ${d.counts} submission counts${d.examMode ? ', exam mode' : ''}.`
}

const dataDir = resolve(text('data') ?? process.env.SANDBOX_DATA_DIR ?? '.data')
const access: PlatformAccess = {
  url: (text('url') ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`).replace(/\/$/, ''),
  apiKey: apiKey(text('api-key'), dataDir),
  ...ideToken(dataDir),
  ...(text('public-url') ? { publicUrl: (text('public-url') as string).replace(/\/$/, '') } : {}),
}

try {
  const e2bKey = text('e2b-api-key')
  if (e2bKey && text('remote')) fail('give either --e2b-api-key or --remote, not both')
  if (e2bKey) access.remoteId = await addRemote(access, e2bKey, text('e2b-api-url'), text('e2b-domain'))
  else if (text('remote')) access.remoteId = text('remote')
  const listName = text('list')
  const endName = text('end')
  const relinked = text('new-link')
  const gradesName = text('grades')
  const deadline = deadlineFlags()
  if (values.csv && !gradesName) fail('--csv goes with --grades NAME')
  if (deadline && !text('template')) {
    const className = text('class') ?? fail('a deadline goes with --template (a new class) or --class NAME')
    console.log(deadlineLine(className, await setClassDeadline(access, className, deadline)))
  } else if (gradesName) {
    if (values.csv) process.stdout.write(await classGradesCsv(access, gradesName))
    else printGrades(await classGrades(access, gradesName))
  } else if (relinked) {
    const className = text('class') ?? fail('--new-link needs --class NAME')
    printTable([await relinkStudent(access, className, relinked)])
  } else if (listName) {
    const rows = await listClass(access, listName)
    if (rows.length === 0) console.log(`Class '${listName}' has no sandboxes.`)
    else printTable(rows)
  } else if (endName) {
    console.log(`Class '${endName}': killed ${await endClass(access, endName)} sandboxes.`)
  } else {
    const template = text('template') ?? fail('--template is required')
    const count = text('students')
    const names = text('names')
    if (!count === !names) fail('give either --students N or --names a,b,c')
    if (count && !(Number.isInteger(Number(count)) && Number(count) > 0))
      fail(`--students must be a positive whole number, not '${count}'`)
    const students = names
      ? names
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
      : numberedStudents(Number(count))
    if (new Set(students).size !== students.length) fail('--names has a name twice')
    const timeout = Number(text('timeout') ?? 14_400)
    if (!Number.isInteger(timeout) || timeout < 1)
      fail(`--timeout must be a positive whole number of seconds`)
    const className = text('class') ?? template
    const started = performance.now()
    const { sandboxes, failures } = await startClass(access, {
      className,
      template,
      students,
      timeoutSeconds: timeout,
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    if (sandboxes.length > 0) printTable(sandboxes)
    console.log(
      `\nClass '${className}': ${sandboxes.length} of ${students.length} sandboxes from '${template}' in ${seconds} s.`,
    )
    for (const failure of failures) console.error(`  ${failure.student}: ${failure.error}`)
    if (deadline && sandboxes.length > 0)
      console.log(deadlineLine(className, await setClassDeadline(access, className, deadline)))
    const where = access.remoteId ? ` --remote ${access.remoteId}` : ''
    console.log(
      `The teacher's dashboard: ${access.publicUrl ?? access.url}${classPagePath(className, access.remoteId)}`,
    )
    console.log(
      `List it with: npm run class --${where} --list ${className}    End it with: npm run class --${where} --end ${className}`,
    )
    if (failures.length > 0) process.exitCode = 1
  }
} catch (err) {
  console.error(`npm run class: ${err instanceof Error ? err.message : String(err)}`)
  process.exitCode = 1
}
