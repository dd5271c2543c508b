import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useState } from 'react'
import type { SignedInAnswer } from '../contract/ideApiTypes'
import { localStack } from '../sandbox/localStack'
import { Splash } from '../ui/Splash'
import { TextWithCode } from '../ui/TextWithCode'
import { navigate, pathFor } from './route'
import { CallerContext, signInFromAddress, tokenFrom } from './signIn'

const signInKey = ['ide-sign-in']

/** The page a student's or a guest's sign-in may show: their own sandbox's. */
function studentPath(who: SignedInAnswer | undefined): string | undefined {
  if (who?.role === 'guest') return pathFor({ source: 'local', sandboxId: who.sandboxId })
  if (who?.role !== 'student') return undefined
  const { sandboxId, remoteId } = who
  return pathFor(remoteId ? { source: 'e2b', remoteId, sandboxId } : { source: 'local', sandboxId })
}

/**
 * Shows its children once this browser is signed in to the local stack; until then, how to sign
 * in. A student is taken to their own sandbox from any other page (the picker, `/`, `/join`).
 */
export function SignInGate({ children }: { children: ReactNode }) {
  const state = useQuery({
    queryKey: signInKey,
    queryFn: signInFromAddress,
    retry: false,
    staleTime: Infinity,
  })
  const who = state.data?.signedIn ? state.data.who : undefined
  const ownPath = studentPath(who)
  const elsewhere = ownPath !== undefined && location.pathname !== ownPath
  useEffect(() => {
    if (ownPath !== undefined && elsewhere) navigate(ownPath, { replace: true })
  }, [ownPath, elsewhere])
  if (state.isPending || elsewhere) return <Splash text="Signing in…" />
  if (state.data?.signedIn === false) return <SignInPage reason={state.data.reason} />
  return <CallerContext.Provider value={who}>{children}</CallerContext.Provider>
}

/** Where the link is, and a field to paste it into. */
function SignInPage({ reason }: { reason: string | undefined }) {
  const queryClient = useQueryClient()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const token = tokenFrom(String(new FormData(event.currentTarget).get('link') ?? ''))
    if (!token) return setError('That is not the IDE’s link or token: the link ends in #token=…')
    setBusy(true)
    setError(undefined)
    try {
      await localStack.signIn(token)
      await queryClient.resetQueries()
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main className="sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Open the IDE with its link</h2>
      <p>
        In a class, open the join link your teacher gave you; it opens your own sandbox, once, in one browser.
      </p>
      <p>
        Otherwise this IDE runs on the machine of whoever started it, and only their link opens it. Look in
        the terminal where <code>npm start</code> runs for the line <strong>Open the IDE:</strong>; its
        address ends in <code>#token=…</code>.
      </p>
      <p>
        Lost it? <code>npm run ide-link</code> prints it again, and <code>npm run ide-link -- --rotate</code>{' '}
        makes a new one and signs every browser out.
      </p>
      {reason !== undefined && (
        <p className="sign-in-reason">
          <TextWithCode text={reason} />
        </p>
      )}
      <form aria-label="Sign in" onSubmit={submit}>
        <label>
          IDE link or token
          <input name="link" type="password" required autoComplete="off" spellCheck={false} />
        </label>
        {error && <p role="alert">{error}</p>}
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  )
}
