import { createContext, useContext } from 'react'
import type { SignedInAnswer } from '../contract/ideApiTypes'
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

/**
 * What the page knows about its sign-in to the local stack: who it is signed in as (unknown
 * when the stack could not say), or why it is not.
 */
export type SignInState = { signedIn: true; who?: SignedInAnswer } | { signedIn: false; reason?: string }

/** The path of a student's join link: `/join#token=…`. */
export const joinPath = '/join'

/**
 * Signs this browser in with the token of the address it was opened with, if any (the IDE's
 * link, or a student's join link on /join), then asks the stack who it is signed in as. Only a
 * 401 means no: a stack that cannot be reached, or a page served without one, is left to the
 * pages to report.
 */
export async function signInFromAddress(): Promise<SignInState> {
  const token = takeTokenFromAddress()
  try {
    if (token !== undefined) {
      if (location.pathname === joinPath) await localStack.join(token)
      else await localStack.signIn(token)
    }
    return { signedIn: true, who: await localStack.signedIn() }
  } catch (err) {
    const failure = sandboxError(err)
    // The stack's words say why a link this page was opened with, or a sign-in this browser had,
    // does not open the IDE (a wrong token, a rotated one, a revoked join link); to a browser that
    // never tried, the page itself says it all.
    if (failure.kind === 'signed-out')
      return token !== undefined || localStack.signedInBefore()
        ? { signedIn: false, reason: failure.message }
        : { signedIn: false }
    return { signedIn: true }
  }
}

/** Who the page is signed in as, under a SignInGate (undefined elsewhere, or when unknown). */
export const CallerContext = createContext<SignedInAnswer | undefined>(undefined)

/** True when this browser's sign-in opens one sandbox only (a student's join link, a guest's share link). */
export function useOneSandboxOnly(): boolean {
  const role = useContext(CallerContext)?.role
  return role === 'student' || role === 'guest'
}

/** True for a view-only guest's page: it watches, and changes nothing (the stack refuses it too). */
export function useViewOnly(): boolean {
  const who = useContext(CallerContext)
  return who?.role === 'guest' && who.rights === 'view'
}
