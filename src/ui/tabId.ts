import { randomId } from '../common/randomId'

const key = 'sandbox-ide:tab-id'
let inMemory: string | undefined

/**
 * This browser tab, the same across its reloads (sessionStorage is per tab) and different in
 * every other tab: what the tab starts in a sandbox (its language servers) is its own. In memory
 * where the browser denies storage (a third-party iframe): then a reload is a new tab.
 */
export function tabId(): string {
  try {
    let id = sessionStorage.getItem(key)
    if (!id) {
      id = randomId()
      sessionStorage.setItem(key, id)
    }
    return id
  } catch {
    inMemory ??= randomId()
    return inMemory
  }
}
