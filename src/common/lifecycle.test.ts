import { describe, expect, it } from 'vitest'
import { DisposableStore, toDisposable } from './lifecycle'

describe('toDisposable', () => {
  it('calls its function the first time it is disposed, and never again', () => {
    let calls = 0
    const disposable = toDisposable(() => calls++)
    expect(calls).toBe(0)
    disposable.dispose()
    disposable.dispose()
    expect(calls).toBe(1)
  })
})

describe('DisposableStore', () => {
  it('returns what is added, so a field can be made and registered in one line', () => {
    const store = new DisposableStore()
    const item = { dispose: () => {}, name: 'timer' }
    expect(store.add(item)).toBe(item)
  })

  it('disposes everything added, last added first', () => {
    const store = new DisposableStore()
    const order: string[] = []
    store.add(toDisposable(() => order.push('watch')))
    store.add(toDisposable(() => order.push('terminals')))
    store.add({ dispose: () => order.push('editor') })
    expect(order).toEqual([])
    store.dispose()
    expect(order).toEqual(['editor', 'terminals', 'watch'])
  })

  it('disposes once however often it is disposed', () => {
    const store = new DisposableStore()
    let calls = 0
    store.add({ dispose: () => calls++ })
    store.dispose()
    store.dispose()
    expect(calls).toBe(1)
  })

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore()
    store.dispose()
    let calls = 0
    store.add({ dispose: () => calls++ })
    expect(calls).toBe(1)
    store.dispose()
    expect(calls).toBe(1)
  })

  it('disposes the rest when one throws, then throws its error', () => {
    const store = new DisposableStore()
    const order: string[] = []
    const failure = new Error('boom')
    store.add(toDisposable(() => order.push('first')))
    store.add(
      toDisposable(() => {
        throw failure
      }),
    )
    store.add(toDisposable(() => order.push('last')))
    expect(() => store.dispose()).toThrow(failure)
    expect(order).toEqual(['last', 'first'])
    // Disposed all the same: nothing runs twice.
    store.dispose()
    expect(order).toEqual(['last', 'first'])
  })

  it('throws every error together when several disposables throw', () => {
    const store = new DisposableStore()
    const errors = [new Error('a'), new Error('b')]
    for (const err of errors)
      store.add(
        toDisposable(() => {
          throw err
        }),
      )
    let thrown: unknown
    try {
      store.dispose()
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(AggregateError)
    expect((thrown as AggregateError).errors).toEqual([errors[1], errors[0]])
  })
})
