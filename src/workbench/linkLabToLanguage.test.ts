import { describe, expect, it } from 'vitest'
import { Subscribers } from '../common/Subscribers'
import { parseLabManifest } from '../contract/labManifest'
import type { LanguageOverrides } from '../contract/languageTable'
import type { LabController } from '../features/lab/LabController'
import { linkLabToLanguage } from './linkLabToLanguage'

/** A lab whose state the test sets. */
function fakeLab() {
  const subscribers = new Subscribers()
  let snapshot = { lab: { kind: 'none' } } as ReturnType<LabController['getSnapshot']>
  const set = (lab: object) => {
    snapshot = { ...snapshot, lab } as typeof snapshot
    subscribers.notify()
  }
  return {
    subscribe: subscribers.add,
    getSnapshot: () => snapshot,
    show: (manifest: object) => set({ kind: 'ready', manifest: parseLabManifest(JSON.stringify(manifest)) }),
    break: () => set({ kind: 'invalid', error: 'not a lab' }),
    remove: () => set({ kind: 'none' }),
  }
}

/** What the language service was last told of the lab. */
function fakeLanguage() {
  const told: (LanguageOverrides | undefined)[] = []
  return { told, setLabOverrides: (overrides: LanguageOverrides | undefined) => told.push(overrides) }
}

describe('linkLabToLanguage', () => {
  it('turns code intelligence off for a lab that says so, and back on when the lab goes', () => {
    const lab = fakeLab()
    const language = fakeLanguage()
    const stop = linkLabToLanguage(lab, language)
    expect(language.told).toEqual([undefined])
    lab.show({ title: 'Exam', codeIntelligence: false, languages: { servers: { python: { command: 'x' } } } })
    expect(language.told.at(-1)).toEqual({ enabled: false, servers: {} })
    lab.remove()
    expect(language.told.at(-1)).toBeUndefined()
    stop()
    lab.show({ title: 'Exam', codeIntelligence: false })
    expect(language.told).toHaveLength(3)
  })

  it("gives the service a lab's own servers, and keeps them while the manifest is broken", () => {
    const lab = fakeLab()
    const language = fakeLanguage()
    linkLabToLanguage(lab, language)
    lab.show({ title: 'C', languages: { servers: { c: { languages: ['c'], command: 'clangd' } } } })
    const c = { enabled: true, servers: { c: { languages: ['c'], command: 'clangd' } } }
    expect(language.told.at(-1)).toEqual(c)
    lab.break()
    expect(language.told.at(-1)).toEqual(c)
    lab.show({ title: 'Plain' })
    expect(language.told.at(-1)).toBeUndefined()
  })
})
