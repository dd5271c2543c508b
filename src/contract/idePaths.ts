// The IDE's page addresses that more than the page itself makes: the dashboard's links, the
// class command's printout, a student's redirect.

/** The page of a sandbox: one of the stack's own, or one on an E2B remote the stack holds a key for. */
export function sandboxPagePath(sandbox: { sandboxId: string; remoteId?: string }): string {
  const id = encodeURIComponent(sandbox.sandboxId)
  return sandbox.remoteId ? `/e2b/${encodeURIComponent(sandbox.remoteId)}/${id}` : `/sandbox/${id}`
}

/** The teacher's dashboard of a class, on the stack or on an E2B remote. */
export function classPagePath(name: string, remoteId?: string): string {
  const path = `/class/${encodeURIComponent(name)}`
  return remoteId ? `/e2b/${encodeURIComponent(remoteId)}${path}` : path
}
