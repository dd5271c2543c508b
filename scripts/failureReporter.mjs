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
    add('outside any test', unhandledErrors)
    const out = process.env.FAILURE_REPORT
    if (out) writeFileSync(out, JSON.stringify(found, null, 2))
  }
}
