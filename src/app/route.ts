import { useSyncExternalStore } from 'react'
import { sandboxPagePath } from '../contract/idePaths'
import type { SandboxAddress } from '../sandbox/sandboxAddress'

/** The app's pages. A runtime address lives in sessionStorage: its token never goes in a URL. */
export type Route =
  | { page: 'default' }
  | { page: 'picker' }
  | { page: 'workbench'; address: SandboxAddress }
  /** The IDE inside another page; the sandbox arrives by postMessage. */
  | { page: 'embed' }
  /** The teacher's dashboard of a class (on the stack, or on an E2B remote), or the list of classes. */
  | { page: 'class'; name?: string; remoteId?: string }

const runtimeKey = 'sandbox-ide:runtime-connection'

/** Remembers a runtime URL and token for this tab, for the /runtime page. */
export function rememberRuntime(runtimeUrl: string, accessToken: string): void {
  sessionStorage.setItem(runtimeKey, JSON.stringify({ runtimeUrl, accessToken }))
}

function storedRuntime(): SandboxAddress | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(runtimeKey) ?? 'null')
    if (typeof value?.runtimeUrl === 'string' && typeof value?.accessToken === 'string') {
      return { source: 'runtime', runtimeUrl: value.runtimeUrl, accessToken: value.accessToken }
    }
  } catch {}
  return undefined
}

/** The route for a path. */
export function parseRoute(path: string): Route {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent)
  if (parts.length === 0) return { page: 'default' }
  if (parts[0] === 'embed' && parts.length === 1) return { page: 'embed' }
  if (parts[0] === 'class' && parts.length <= 2)
    return parts[1] ? { page: 'class', name: parts[1] } : { page: 'class' }
  // A student's join link: signing in takes the student on to their sandbox.
  if (parts[0] === 'join' && parts.length === 1) return { page: 'default' }
  // /sandboxes is the E2B platform API's path on the same server, so the picker lives at /sandbox.
  if (parts[0] === 'sandbox' && parts.length === 1) return { page: 'picker' }
  if (parts[0] === 'sandbox' && parts[1])
    return { page: 'workbench', address: { source: 'local', sandboxId: parts[1] } }
  if (parts[0] === 'e2b' && parts[1] && parts[2] === 'class' && parts[3] && parts.length === 4)
    return { page: 'class', name: parts[3], remoteId: parts[1] }
  if (parts[0] === 'e2b' && parts[1] && parts[2]) {
    return { page: 'workbench', address: { source: 'e2b', remoteId: parts[1], sandboxId: parts[2] } }
  }
  if (parts[0] === 'runtime') {
    const address = storedRuntime()
    return address ? { page: 'workbench', address } : { page: 'picker' }
  }
  return { page: 'picker' }
}

/** The path that opens an address in the workbench. */
export function pathFor(address: SandboxAddress): string {
  return address.source === 'runtime' ? '/runtime' : sandboxPagePath(address)
}

const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  window.addEventListener('popstate', listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('popstate', listener)
  }
}

/** Goes to a path without reloading the page; `replace` leaves no history entry for the page left. */
export function navigate(path: string, { replace = false } = {}): void {
  if (path === location.pathname) return
  if (replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  for (const listener of listeners) listener()
}

/** The current path, re-rendering on navigation. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, () => location.pathname)
}
