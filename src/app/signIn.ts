import { localStack } from '../sandbox/localStack'
import { sandboxError } from '../sandbox/sandboxError'

/** The token in an address the stack printed (`…#token=…`), or a token pasted on its own. */
export function tokenFrom(text: string): string | undefined {
  const trimmed = text.trim()
  const hash = trimmed.includes('#') ? trimmed.slice(trimmed.indexOf('#') + 1) : undefined
  if (hash !== undefined) return new URLSearchParams(hash).get('token') ?? undefined
  return /^[A-Za-z0-9_-]{16,256}$/.test(trimmed) ? trimmed : undefined
}

/** Takes the token out of this page's address, so it is not left in the address bar or history. */
function takeTokenFromAddress(): string | undefined {
  if (!location.hash) return undefined
  const token = tokenFrom(location.hash)
  if (token !== undefined) history.replaceState(history.state, '', location.pathname + location.search)
  return token
}

/** What the page knows about its sign-in to the local stack. */
export type SignInState = { signedIn: true } | { signedIn: false; reason: string }

/**
 * Signs this browser in with the token of the address it was opened with, if any, then asks the
 * stack whether it is signed in. Only a 401 means no: a stack that cannot be reached, or a page
 * served without one, is left to the pages to report.
 */
export async function signInFromAddress(): Promise<SignInState> {
  try {
    const token = takeTokenFromAddress()
    if (token !== undefined) await localStack.signIn(token)
    await localStack.signedIn()
    return { signedIn: true }
  } catch (err) {
    const failure = sandboxError(err)
    if (failure.kind === 'signed-out') return { signedIn: false, reason: failure.message }
    return { signedIn: true }
  }
}
