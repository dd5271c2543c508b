import { describe, expect, it } from 'vitest'
import { FocusRequest } from './FocusRequest'

describe('FocusRequest', () => {
  it('is taken once per request, also by a view that mounts after it was made', () => {
    const focus = new FocusRequest()
    expect(focus.take()).toBe(false)
    focus.request()
    // The panel mounts now (its code loaded late): it takes the request.
    expect(focus.take()).toBe(true)
    // Mounted again later (the sidebar hidden and shown): nothing to take.
    expect(focus.take()).toBe(false)
  })

  it('tells its subscribers of each request', () => {
    const focus = new FocusRequest()
    let heard = 0
    focus.subscribe(() => heard++)
    focus.request()
    focus.request()
    expect([heard, focus.getSnapshot()]).toEqual([2, 2])
  })
})
