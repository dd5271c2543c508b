// Shared documents between pages over a broadcast channel held in memory (the relay itself is
// tested against a real runtime in RelayChannel.test.ts): a newcomer takes the others' text, two
// who start at once from the same disk agree without doubling it, edits made while cut off merge
// on return, and garbage on the channel is dropped without harm.
import { afterEach, describe, expect, it } from 'vitest'
import { Subscribers } from '../../common/Subscribers'
import { until } from '../testing/until'
import { Presence } from './Presence'
import type { RelayMessage } from './relayFraming'
import { type BroadcastChannel, SharedDocuments } from './SharedDocuments'

/** Every page's channel on one bus; a page can be cut off and come back. */
class Bus {
  readonly pages: MemoryChannel[] = []
  deliver(from: MemoryChannel, topic: string, payload: Uint8Array): void {
    const message: RelayMessage = { sender: from.me, topic, payload: payload.slice() }
    setTimeout(() => {
      for (const page of this.pages) if (page !== from && page.open) page.hear(message)
    }, 1)
  }
}

class MemoryChannel implements BroadcastChannel {
  open = false
  private readonly listeners = new Set<(message: RelayMessage) => void>()
  private readonly state = new Subscribers()
  constructor(
    readonly me: string,
    private readonly bus: Bus,
    readonly listenOnly = false,
  ) {
    bus.pages.push(this)
  }
  async connect(): Promise<void> {
    if (this.open) return
    this.open = true
    this.state.notify()
  }
  cut(): void {
    this.open = false
    this.state.notify()
  }
  publish(topic: string, payload: Uint8Array): void {
    if (this.open && !this.listenOnly) this.bus.deliver(this, topic, payload)
  }
  hear(message: RelayMessage): void {
    for (const listener of this.listeners) listener(message)
  }
  onMessage(listener: (message: RelayMessage) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  onStateChange = this.state.add
}

describe('SharedDocuments', () => {
  const made: { dispose(): void }[] = []
  afterEach(() => {
    for (const m of made.splice(0)) m.dispose()
  })
  const page = (bus: Bus, name: string, listenOnly = false) => {
    const channel = new MemoryChannel(name, bus, listenOnly)
    const presence = new Presence(channel, { name })
    const documents = new SharedDocuments(channel, presence)
    made.push(documents, presence)
    return { channel, presence, documents }
  }

  it('a page that opens a file others have open takes their text, unsaved edits and all', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    const docA = await a.documents.join('/home/user/x.py', 'print(1)\n')
    docA.text.insert(0, '# edited\n')
    const docB = await b.documents.join('/home/user/x.py', 'print(1)\n')
    expect(docB.text.toString()).toBe('# edited\nprint(1)\n')
    docB.text.insert(docB.text.length, 'print(2)\n')
    await until('a has b’s edit', () => (docA.text.toString().endsWith('print(2)\n') ? true : undefined))
    expect(docA.text.toString()).toBe(docB.text.toString())
  })

  it('two pages that start a file at the same moment from the same disk agree, without doubling it', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    const [docA, docB] = await Promise.all([
      a.documents.join('/f.txt', 'one\ntwo\n'),
      b.documents.join('/f.txt', 'one\ntwo\n'),
    ])
    docA.text.insert(0, 'A')
    docB.text.insert(docB.text.length, 'B')
    await until('both edits everywhere', () =>
      docA.text.toString() === 'Aone\ntwo\nB' && docB.text.toString() === 'Aone\ntwo\nB' ? true : undefined,
    )
  })

  it('edits made while cut off from the others merge both ways when the page is back', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    const docA = await a.documents.join('/f.txt', 'line\n')
    const docB = await b.documents.join('/f.txt', 'line\n')
    b.channel.cut()
    docA.text.insert(0, 'from a ')
    docB.text.insert(docB.text.length, 'from b\n')
    await new Promise((r) => setTimeout(r, 20))
    expect(docA.text.toString()).toBe('from a line\n')
    await b.channel.connect()
    await until('merged', () =>
      docA.text.toString() === docB.text.toString() && docA.text.toString() === 'from a line\nfrom b\n'
        ? true
        : undefined,
    )
  })

  it('the page with the lowest name leads (takes changes from outside in); the others know it is shared', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    const docA = await a.documents.join('/f.txt', 'x')
    const docB = await b.documents.join('/f.txt', 'x')
    await until('each sees the other', () => (docA.shared && docB.shared ? true : undefined))
    expect(docA.leads).toBe(true)
    expect(docB.leads).toBe(false)
    b.documents.leave(docB)
    await until('a alone again', () => (docA.shared ? undefined : true))
    expect(docA.leads).toBe(true)
  })

  it('a page that goes away (its tab closed) leaves the others at once, and comes back when shown again', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    await a.documents.join('/f.txt', 'x')
    await b.documents.join('/f.txt', 'x')
    await until('b sees a', () => (b.presence.pagesWith('/f.txt').includes('a') ? true : undefined))
    a.presence.setAway(true)
    await until('a gone for b', () => (b.presence.others().length === 0 ? true : undefined))
    a.presence.setAway(false)
    await until('a back, with its files', () =>
      b.presence.pagesWith('/f.txt').includes('a') ? true : undefined,
    )
  })

  it('a page that only listens (view-only) gets the whole text, unsaved edits made before it came included', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const docA = await a.documents.join('/f.txt', 'one\n')
    docA.text.insert(0, 'typed before the viewer came ')
    await new Promise((r) => setTimeout(r, 50))
    const viewer = page(bus, 'v', true)
    const docV = await viewer.documents.join('/f.txt', 'one\n')
    expect(docV.text.toString()).toBe('')
    await docV.hasState
    expect(docV.text.toString()).toBe('typed before the viewer came one\n')
    docA.text.insert(docA.text.length, 'two\n')
    await until('the viewer follows', () =>
      docV.text.toString() === 'typed before the viewer came one\ntwo\n' ? true : undefined,
    )
  })

  it('a save is announced: the others can tell it from a change made outside', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    const docA = await a.documents.join('/f.txt', 'x')
    const docB = await b.documents.join('/f.txt', 'x')
    docA.saved('sha-of-bytes')
    await until('b heard it', () => (docB.savedByOther('sha-of-bytes') ? true : undefined))
    expect(docB.savedByOther('something else')).toBe(false)
  })

  it('drops garbage on the channel (anyone in the sandbox can write to it) and keeps going', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    const b = page(bus, 'b')
    const docA = await a.documents.join('/f.txt', 'x')
    const docB = await b.documents.join('/f.txt', 'x')
    const evil = new MemoryChannel('evil', bus)
    await evil.connect()
    evil.publish('doc:/f.txt', new Uint8Array([2, 255, 255, 255, 255, 1, 2, 3]))
    evil.publish('doc:/f.txt', new Uint8Array([9, 1]))
    evil.publish('presence', new Uint8Array([200, 1, 2]))
    evil.publish('doc:/f.txt', new Uint8Array([3, ...new TextEncoder().encode('h'.repeat(500))]))
    await until('dropped', () => (a.documents.dropped >= 3 && b.documents.dropped >= 3 ? true : undefined))
    docA.text.insert(1, 'y')
    await until('still in step', () => (docB.text.toString() === 'xy' ? true : undefined))
  })

  it('refuses a text over the bound, so the editor keeps it unshared', async () => {
    const bus = new Bus()
    const a = page(bus, 'a')
    await expect(a.documents.join('/big.txt', 'x'.repeat(4 * 1024 * 1024 + 1))).rejects.toThrow(/too big/)
  })
})
