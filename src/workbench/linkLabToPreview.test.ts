import { describe, expect, it } from 'vitest'
import { Subscribers } from '../common/Subscribers'
import { parseLabManifest } from '../contract/labManifest'
import type { LabController } from '../features/lab/LabController'
import { PreviewModel } from '../features/preview/PreviewModel'
import { linkLabToPreview } from './linkLabToPreview'

/** A lab whose state the test sets. */
function fakeLab() {
  const subscribers = new Subscribers()
  let snapshot = { lab: { kind: 'none' } } as ReturnType<LabController['getSnapshot']>
  return {
    subscribe: subscribers.add,
    getSnapshot: () => snapshot,
    show(manifest: object) {
      snapshot = {
        ...snapshot,
        lab: { kind: 'ready', manifest: parseLabManifest(JSON.stringify(manifest)) },
      } as typeof snapshot
      subscribers.notify()
    },
  }
}

describe('linkLabToPreview', () => {
  it('previews the port a lab names, once, when the lab shows', () => {
    const lab = fakeLab()
    const preview = new PreviewModel()
    const stop = linkLabToPreview(lab, preview)
    expect(preview.getSnapshot()).toBeUndefined()
    lab.show({ title: 'Web', preview: { port: 8000, path: '/index.html' } })
    expect(preview.getSnapshot()).toMatchObject({ port: 8000, path: '/index.html', generation: 1 })
    preview.close()
    lab.show({ title: 'Web again', preview: { port: 8000 } })
    expect(preview.getSnapshot()).toBeUndefined()
    stop()
  })

  it('leaves the preview alone for a lab without a port, and refuses a bad one', () => {
    const lab = fakeLab()
    const preview = new PreviewModel()
    linkLabToPreview(lab, preview)
    lab.show({ title: 'Python' })
    expect(preview.getSnapshot()).toBeUndefined()
    expect(() => parseLabManifest(JSON.stringify({ title: 'x', preview: { port: 0 } }))).toThrow('preview')
    expect(() =>
      parseLabManifest(JSON.stringify({ title: 'x', preview: { port: 80, path: 'no-slash' } })),
    ).toThrow('preview')
  })
})
