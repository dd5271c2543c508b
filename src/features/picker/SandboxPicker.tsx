import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { SandboxSummary } from '../../contract/ideApiTypes'
import { localStack } from '../../sandbox/localStack'
import type { SandboxAddress } from '../../sandbox/sandboxAddress'
import { reportErrors } from '../../ui/notifications'
import { formatDuration, useNow } from '../../ui/useNow'
import { ConnectE2BForm, ConnectRuntimeForm } from './ConnectForms'

/** The template every stack has: an empty home. */
const baseTemplate = 'base'

/** Every local sandbox with its actions, and ways to reach sandboxes elsewhere. */
export function SandboxPicker({ onOpen }: { onOpen(address: SandboxAddress): void }) {
  const queryClient = useQueryClient()
  const sandboxes = useQuery({
    queryKey: ['sandboxes'],
    queryFn: localStack.sandboxes,
    refetchInterval: 5000,
  })
  const now = useNow()
  const [killing, setKilling] = useState<SandboxSummary>()
  const confirm = useRef<HTMLDialogElement>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sandboxes'] })
  const act = (what: string, action: () => Promise<unknown>) => reportErrors(what, action).then(refresh)
  // The stack's templates: `base` (an empty home) and one per lab folder; base until they load.
  const templates = useQuery({ queryKey: ['templates'], queryFn: localStack.templates })
  const [templateId, setTemplateId] = useState(baseTemplate)
  const create = useMutation({
    mutationFn: () => localStack.createSandbox({ templateId }),
    onSuccess: (created) => onOpen({ source: 'local', sandboxId: created.sandboxId }),
    onError: (err) => reportErrors('Creating a sandbox failed', () => Promise.reject(err)),
  })
  const local = (sandboxId: string) => ({ source: 'local', sandboxId }) as const

  return (
    <main className="picker" aria-label="Sandboxes">
      <div className="picker-header">
        <h2>Sandboxes on this machine</h2>
        <form
          className="picker-create"
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate()
          }}
        >
          <label>
            Template{' '}
            <select value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
              {(templates.data ?? [{ templateId: baseTemplate }]).map(({ templateId: id }) => (
                <option key={id} value={id}>
                  {id === baseTemplate ? `${id} (empty home)` : id}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            New sandbox
          </button>
        </form>
      </div>
      {sandboxes.isError && <p role="alert">{sandboxes.error.message}</p>}
      <table className="sandbox-table" aria-label="Local sandboxes">
        <thead>
          <tr>
            <th scope="col">Sandbox</th>
            <th scope="col">Template</th>
            <th scope="col">State</th>
            <th scope="col">Time left</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {sandboxes.data?.map((s) => (
            <tr key={s.sandboxId}>
              <td>
                <code>{s.sandboxId}</code> {s.isDefault && <span className="tag">default</span>}
              </td>
              <td>{s.templateId}</td>
              <td>
                {s.state}
                {s.processesLost && s.state === 'paused' ? ' (processes ended)' : ''}
              </td>
              <td>{formatDuration(Date.parse(s.endAt) - now)}</td>
              <td className="row-actions">
                <button
                  type="button"
                  onClick={() => onOpen(local(s.sandboxId))}
                  aria-label={`Open ${s.sandboxId}`}
                >
                  Open
                </button>
                {s.state === 'running' ? (
                  <button
                    type="button"
                    aria-label={`Pause ${s.sandboxId}`}
                    onClick={() => act('Pause failed', () => localStack.pause(s.sandboxId))}
                  >
                    Pause
                  </button>
                ) : (
                  <button
                    type="button"
                    aria-label={`Resume ${s.sandboxId}`}
                    onClick={() => act('Resume failed', () => localStack.resume(s.sandboxId))}
                  >
                    Resume
                  </button>
                )}
                <button
                  type="button"
                  className="danger"
                  aria-label={`Kill ${s.sandboxId}`}
                  onClick={() => {
                    setKilling(s)
                    confirm.current?.showModal()
                  }}
                >
                  Kill
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dialog ref={confirm} aria-labelledby="kill-title" className="dialog">
        <form
          method="dialog"
          onSubmit={(e) => {
            const choice = (e.nativeEvent as SubmitEvent).submitter?.getAttribute('value')
            if (choice === 'kill' && killing)
              void act('Kill failed', () => localStack.killSandbox(killing.sandboxId))
          }}
        >
          <h3 id="kill-title">Kill sandbox {killing?.sandboxId}?</h3>
          <p>Its processes stop and its files are deleted. This cannot be undone.</p>
          <div className="dialog-actions">
            <button type="submit" value="cancel">
              Cancel
            </button>
            <button type="submit" value="kill" className="danger">
              Kill sandbox
            </button>
          </div>
        </form>
      </dialog>
      <div className="connect-forms">
        <ConnectE2BForm onOpen={onOpen} />
        <ConnectRuntimeForm onOpen={onOpen} />
      </div>
    </main>
  )
}
