import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { ShareLinkView } from '../../contract/ideApiTypes'
import { localStack } from '../../sandbox/localStack'
import { copyText, errorMessage } from '../../ui/copyText'
import { useModalDialog } from '../../ui/useModalDialog'

/** How long a new link lasts, as the owner picks it. */
const expiries = [
  { minutes: 30, label: '30 minutes' },
  { minutes: 120, label: '2 hours' },
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 7 * 24 * 60, label: '7 days' },
]

/** The address a share link opens: the token in the fragment, which no server ever sees. */
export const shareAddress = (link: Pick<ShareLinkView, 'token'>) =>
  `${location.origin}/join#token=${link.token}`

/**
 * The owner's share links to this sandbox: a new one (edit or view only, how long, the guest's
 * name), copied to give, and the others listed with what became of them, each revocable (its
 * guest is cut off at once). A modal dialog; Escape closes it.
 */
export function ShareDialog({
  sandboxId,
  open,
  onClose,
}: {
  sandboxId: string
  open: boolean
  onClose(): void
}) {
  const { dialog } = useModalDialog(open)
  const queryClient = useQueryClient()
  const key = ['share-links', sandboxId]
  const links = useQuery({ queryKey: key, queryFn: () => localStack.shareLinks(sandboxId), enabled: open })
  const [made, setMade] = useState<ShareLinkView>()
  const [status, setStatus] = useState<string>()
  const [busy, setBusy] = useState(false)

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const name = String(form.get('name') ?? '').trim()
    setBusy(true)
    setStatus(undefined)
    try {
      const link = await localStack.newShareLink(sandboxId, {
        rights: form.get('rights') === 'edit' ? 'edit' : 'view',
        minutes: Number(form.get('expiry')),
        ...(name ? { name } : {}),
      })
      setMade(link)
      await queryClient.invalidateQueries({ queryKey: key })
    } catch (err) {
      setStatus(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }
  const copy = async (link: ShareLinkView) => {
    try {
      await copyText(shareAddress(link))
      setStatus('Link copied. It opens one browser.')
    } catch (err) {
      setStatus(`Copy it by hand: ${errorMessage(err)}`)
    }
  }
  const revoke = async (link: ShareLinkView) => {
    try {
      await localStack.revokeShareLink(link.id)
      if (made?.id === link.id) setMade(undefined)
      setStatus(`${link.name}'s link was revoked.`)
      await queryClient.invalidateQueries({ queryKey: key })
    } catch (err) {
      setStatus(errorMessage(err))
    }
  }

  return (
    <dialog ref={dialog} className="dialog share-dialog" aria-labelledby="share-title" onClose={onClose}>
      <h2 id="share-title">Share this sandbox</h2>
      <form aria-label="New share link" onSubmit={create}>
        <fieldset>
          <legend>They may</legend>
          <label>
            <input type="radio" name="rights" value="view" defaultChecked /> View only
          </label>
          <label>
            <input type="radio" name="rights" value="edit" /> Edit
          </label>
        </fieldset>
        <label>
          Expires after{' '}
          <select name="expiry" defaultValue={120}>
            {expiries.map((e) => (
              <option key={e.minutes} value={e.minutes}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Their name <input name="name" placeholder="Guest" maxLength={40} autoComplete="off" />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Make link
        </button>
      </form>
      {made && (
        <p className="share-made">
          <label>
            Link for {made.name}{' '}
            <input
              readOnly
              value={shareAddress(made)}
              aria-label="Share link"
              onFocus={(e) => e.target.select()}
            />
          </label>
          <button type="button" onClick={() => void copy(made)}>
            Copy link
          </button>
        </p>
      )}
      <p role="status">{status}</p>
      <h3>Links</h3>
      {links.isError && <p role="alert">{errorMessage(links.error)}</p>}
      <ul aria-label="Share links">
        {(links.data ?? []).map((link) => (
          <li key={link.id}>
            <span>
              {link.name} · {link.rights === 'edit' ? 'can edit' : 'view only'} · {linkState(link)}
            </span>{' '}
            <button type="button" onClick={() => void revoke(link)} aria-label={`Revoke ${link.name}'s link`}>
              Revoke
            </button>
          </li>
        ))}
        {links.data?.length === 0 && <li>None yet.</li>}
      </ul>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  )
}

function linkState(link: ShareLinkView): string {
  const ends = new Date(link.expiresAt)
  if (ends.getTime() <= Date.now()) return 'expired'
  const until = `until ${ends.toLocaleString()}`
  return link.claimedAt ? `opened, ${until}` : `not opened yet, ${until}`
}
