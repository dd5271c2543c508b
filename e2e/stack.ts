import { test } from '@playwright/test'
import { LocalStack } from './localStack'

export { freePort, LocalStack } from './localStack'

/** A real stack for the specs of one file: started before them, disposed after them. */
export function stackForThisFile(extraArgs: string[] = []): LocalStack {
  const stack = new LocalStack(undefined, extraArgs)
  test.beforeAll(() => stack.start())
  test.afterAll(() => stack.dispose())
  return stack
}
