import type { SubmissionTest } from '../../../../src/contract/submissions'
import { parseXml, type XmlElement, XmlError } from './xmlElements'

/** One test of a graded submission (its message cut to a few KiB), as the contract has it. */
export type TestResult = SubmissionTest

/** The most of a message kept per test. */
const maxMessage = 4 * 1024

/** A report that is not JUnit XML this reader understands. */
export class ReportError extends Error {}

/**
 * The tests of a JUnit XML report (`<testsuites>` or `<testsuite>`, suites nested at any depth),
 * each with its points: `points[name]`, or `points["classname.name"]`, or 1. A `<failure>` or
 * `<error>` fails a test, a `<skipped>` earns it nothing; anything else passed.
 */
export function junitResults(xml: string, points: Readonly<Record<string, number>>): TestResult[] {
  let root: XmlElement
  try {
    root = parseXml(xml)
  } catch (err) {
    if (err instanceof XmlError) throw new ReportError(`the report is not XML: ${err.message}`)
    throw err
  }
  if (root.name !== 'testsuites' && root.name !== 'testsuite') {
    throw new ReportError(`the report is not JUnit XML: its root is <${root.name}>, not <testsuites>`)
  }
  const results: TestResult[] = []
  const visit = (suite: XmlElement) => {
    for (const child of suite.children) {
      if (child.name === 'testsuite') visit(child)
      else if (child.name === 'testcase') results.push(testResult(child, points))
    }
  }
  visit(root)
  return results
}

function testResult(testcase: XmlElement, points: Readonly<Record<string, number>>): TestResult {
  const { name, classname } = testcase.attributes
  if (!name) throw new ReportError('the report has a <testcase> without a name')
  const worth = points[name] ?? (classname ? points[`${classname}.${name}`] : undefined) ?? 1
  const failure = testcase.children.find((c) => c.name === 'failure' || c.name === 'error')
  const skipped = testcase.children.find((c) => c.name === 'skipped')
  const verdict = failure ?? skipped
  const outcome = failure ? 'failed' : skipped ? 'skipped' : 'passed'
  const message = verdict && messageOf(verdict)
  return {
    name,
    ...(classname ? { className: classname } : {}),
    outcome,
    ...(message ? { message } : {}),
    earned: outcome === 'passed' ? worth : 0,
    points: worth,
  }
}

/** A verdict's `message` attribute and its text, as a runner writes either or both. */
function messageOf(verdict: XmlElement): string {
  const said = verdict.attributes.message?.trim() ?? ''
  const text = verdict.text.trim()
  const whole = text.startsWith(said) ? text : [said, text].filter(Boolean).join('\n')
  return whole.length > maxMessage ? `${whole.slice(0, maxMessage)}…` : whole
}
