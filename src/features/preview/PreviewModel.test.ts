import { describe, expect, it } from 'vitest'
import { PreviewModel } from './PreviewModel'

describe('PreviewModel', () => {
  it('goes back and forward through the addresses it was given, and a new one drops what was ahead', () => {
    const model = new PreviewModel()
    const seen = () => {
      const t = model.getSnapshot()
      return t && `${t.port}${t.path} ${t.canGoBack ? '<' : '-'}${t.canGoForward ? '>' : '-'}`
    }
    model.open(8000)
    expect(seen()).toBe('8000/ --')
    model.open(8000, 'about.html')
    model.open(3000, '/api')
    expect(seen()).toBe('3000/api <-')
    model.back()
    expect(seen()).toBe('8000/about.html <>')
    model.back()
    model.back()
    expect(seen()).toBe('8000/ ->')
    model.forward()
    model.open(8000, '/docs')
    expect(seen()).toBe('8000/docs <-')
    model.forward()
    expect(seen()).toBe('8000/docs <-')
    // The same address again is a reload, not a second entry.
    const before = model.getSnapshot()?.generation ?? 0
    model.open(8000, '/docs')
    expect(model.getSnapshot()?.generation).toBeGreaterThan(before)
    model.back()
    expect(seen()).toBe('8000/about.html <>')
    model.close()
    expect(model.getSnapshot()).toBeUndefined()
    model.open(5000)
    expect(seen()).toBe('5000/ --')
  })

  it('loads again on reload, at the same address', () => {
    const model = new PreviewModel()
    model.reload()
    expect(model.getSnapshot()).toBeUndefined()
    model.open(8000, '/x')
    const first = model.getSnapshot()
    model.reload()
    expect(model.getSnapshot()).toMatchObject({ port: 8000, path: '/x' })
    expect(model.getSnapshot()?.generation).toBeGreaterThan(first?.generation ?? 0)
  })
})
