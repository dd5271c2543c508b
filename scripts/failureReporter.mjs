// A Vitest reporter for the failures its JSON report leaves without a reason: a file or a describe
// block whose hook failed (beforeAll, afterAll), and errors outside any test. scripts/test.mjs
// prints them at the end of the log, where CI shows them.
import { writeFileSync } from 'node:fs'

export default class FailureReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const found = []
    const add = (where, errors) => {
      for (const error of errors)
        found.push({ where, message: error.stack || error.message || String(error) })
    }
    for (const module of testModules) {
      add(module.relativeModuleId, module.errors())
      for (const suite of module.children.allSuites())
        add(`${module.relativeModuleId} › ${suite.fullName}`, suite.errors())
    }
    // Vitest names the file and test that were running when an error escaped (not always its
    // cause); its frames are kept, re-worded, since the log's summary drops lines starting with "at".
    for (const error of unhandledErrors) {
      const during = error.VITEST_TEST_PATH
        ? `, during ${error.VITEST_TEST_PATH.replace(`${process.cwd()}/`, '')} › ${error.VITEST_TEST_NAME ?? ''}`
        : ''
      const frames = String(error.stack ?? '')
        .split('\n')
        .filter((line) => /^\s*at /.test(line))
        .slice(0, 6)
        .map((line) => `  from ${line.trim().slice(3)}`)
      found.push({
        where: `outside any test (${error.type ?? 'error'}${during})`,
        message: [error.message ?? String(error), ...frames].join('\n'),
      })
    }
    const out = process.env.FAILURE_REPORT
    if (out) writeFileSync(out, JSON.stringify(found, null, 2))
  }
}
