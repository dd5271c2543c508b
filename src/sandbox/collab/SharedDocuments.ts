import * as Y from 'yjs'
import { Subscribers } from '../../common/Subscribers'
import { maxSharedChars } from './collaboration'
import type { Presence } from './Presence'
import type { RelayMessage } from './relayFraming'

/** What the documents need of a broadcast channel between the pages of one sandbox (RelayChannel). */
export interface BroadcastChannel {
  readonly me: string
  readonly open: boolean
  /** A view-only page's: it hears and never says anything. */
  readonly listenOnly?: boolean
  connect(): Promise<void>
  publish(topic: string, payload: Uint8Array): void
  /** Says something that must reach the others even as this page closes; `publish` where absent. */
  publishLast?(topic: string, payload: Uint8Array): void
  onMessage(listener: (message: RelayMessage) => void): () => void
  onStateChange(listener: () => void): () => void
}

/** How long a page waits for another's copy before it starts the document from the disk alone. */
const answerMs = 600
/**
 * A page that only listens (a view-only guest) cannot ask for a copy, so the page that leads
 * sends its whole state this often after a change, and now and then even without one.
 */
const fullStateEveryMs = 3_000
const fullStateIdleTicks = 10
/**
 * Up to this size, an unsaved text is sent whole at every turn, even unchanged: a listener who
 * just came shows the disk's text until then (it cannot ask, and nobody knows it came).
 */
const maxUnsavedEveryTurnChars = 64 * 1024
/** Larger texts are not sent whole for listeners (a view-only page follows them through saves). */
const maxListenedChars = 256 * 1024

/** Kinds of message about one document (the first byte of its payload). */
const Kind = {
  /** I have joined (or come back): my state vector; answer with what I lack, and ask for what you lack. */
  Hello: 0,
  /** My state vector: answer with what I lack. */
  Ask: 1,
  /** Edits (a Yjs update). */
  Update: 2,
  /** I saved: the hash of the bytes now on disk, so nobody takes it for a change from outside. */
  Saved: 3,
  /** My whole state, for pages that only listen (they cannot ask for it). */
  Full: 4,
} as const
type Kind = (typeof Kind)[keyof typeof Kind]

const topicOf = (path: string) => `doc:${path}`
const encoder = new TextEncoder()
const decoder = new TextDecoder()

function framed(kind: Kind, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1)
  out[0] = kind
  out.set(body, 1)
  return out
}

/** A Yjs id from the text itself, so pages that start a document from the same disk text make the same edit. */
function seedClientId(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  // Yjs ids are 53-bit safe integers; keep clear of the small numbers random ids rarely take.
  return (hash >>> 0) + 2 ** 32
}

/** The update that starts a document holding `text`: the same bytes on every page. */
function seedUpdate(text: string): Uint8Array {
  const seed = new Y.Doc()
  seed.clientID = seedClientId(text)
  seed.getText('text').insert(0, text)
  const update = Y.encodeStateAsUpdate(seed)
  seed.destroy()
  return update
}

/**
 * One file's text shared by the pages that have it open: a Yjs document kept in step over the
 * channel. Its `text` is what the editor binds to; edits made here (origin anything but
 * `remoteOrigin`) go to the others, theirs arrive with `remoteOrigin`.
 */
export class SharedText {
  readonly doc = new Y.Doc()
  readonly text = this.doc.getText('text')
  /** Hashes of the bytes others said they saved, newest last. */
  private readonly savedByOthers: string[] = []
  private readonly subscribers = new Subscribers()
  private answered: (() => void) | undefined
  private closed = false
  /** Changed since its whole state was last sent (by the page that leads). */
  changedSinceFull = false
  /** Whether the text differs from the disk (the editor says): a listener's disk copy is wrong. */
  unsaved = false
  private stateArrived: (() => void) | undefined
  /** Settles once the text holds state from the others (a listening page's first copy). */
  readonly hasState: Promise<void> = new Promise((resolve) => {
    this.stateArrived = resolve
  })

  constructor(
    readonly path: string,
    private readonly say: (kind: Kind, body: Uint8Array) => void,
    private readonly me: string,
    private readonly presence: Presence,
  ) {
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      this.changedSinceFull = true
      if (origin !== remoteOrigin && !this.closed) this.say(Kind.Update, update)
    })
  }

  /** Whether this page takes changes from outside (the terminal, git) into the shared text: the lowest name among those who have it open. */
  get leads(): boolean {
    return this.presence.pagesWith(this.path).every((page) => page > this.me)
  }

  /** Whether anyone else has it open. */
  get shared(): boolean {
    return this.presence.pagesWith(this.path).length > 0
  }

  /** Whether another page saved exactly these bytes (so the disk's change is the shared text's own). */
  savedByOther(hash: string): boolean {
    return this.savedByOthers.includes(hash)
  }

  /** Tells the others that the disk now holds the text whose bytes hash to `hash`. */
  saved(hash: string): void {
    this.say(Kind.Saved, encoder.encode(hash))
  }

  /** Called when another page says it saved. */
  onSavedByOther = this.subscribers.add

  /**
   * Starts the text: from another page's copy when one answers, or else from `diskText` (the same
   * edit on every page that starts it from the same text, so two who start at once agree).
   */
  async start(diskText: string, othersMayHaveIt: boolean, listenOnly = false): Promise<void> {
    // A listening page says nothing and starts nothing: its copy is the first state it hears.
    if (listenOnly) return
    const answer = new Promise<void>((resolve) => {
      this.answered = resolve
    })
    this.hello()
    if (othersMayHaveIt) await Promise.race([answer, new Promise((r) => setTimeout(r, answerMs))])
    this.answered = undefined
    if (this.text.length === 0 && diskText.length > 0 && !this.closed)
      Y.applyUpdate(this.doc, seedUpdate(diskText), seedOrigin)
  }

  /** Sends the whole state, for pages that listen only (they cannot ask). */
  sendFullState(): void {
    this.changedSinceFull = false
    this.say(Kind.Full, Y.encodeStateAsUpdate(this.doc))
  }

  /** Says hello again: the channel reopened, and each side may have missed the other's edits. */
  hello(): void {
    this.say(Kind.Hello, Y.encodeStateVector(this.doc))
  }

  /** A message from another page about this document. Throws on malformed input. */
  receive(kind: number, body: Uint8Array): void {
    switch (kind) {
      case Kind.Hello:
        this.answer(body)
        this.say(Kind.Ask, Y.encodeStateVector(this.doc))
        return
      case Kind.Ask:
        this.answer(body)
        return
      case Kind.Update:
        this.apply(body)
        this.answered?.()
        return
      case Kind.Full:
        this.apply(body)
        this.stateArrived?.()
        return
      case Kind.Saved: {
        const hash = decoder.decode(body)
        if (hash.length > 200) throw new Error('not a hash')
        this.savedByOthers.push(hash)
        if (this.savedByOthers.length > 16) this.savedByOthers.shift()
        this.subscribers.notify()
        return
      }
      default:
        throw new Error(`unknown kind ${kind}`)
    }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.subscribers.clear()
    this.doc.destroy()
  }

  private answer(stateVector: Uint8Array): void {
    const update = Y.encodeStateAsUpdate(this.doc, stateVector)
    // An update with nothing in it is two zero bytes: not worth a message.
    if (update.length > 2) this.say(Kind.Update, update)
  }

  private apply(update: Uint8Array): void {
    const before = this.text.length
    Y.applyUpdate(this.doc, update, remoteOrigin)
    if (this.text.length > maxSharedChars && this.text.length > before)
      throw new Error(`the shared text grew over ${maxSharedChars} characters`)
  }
}

/** The origin of edits that came from another page. */
export const remoteOrigin = Symbol('remote')
/** The origin of the edit that starts a document from the disk. */
export const seedOrigin = Symbol('seed')

/**
 * The documents this page shares with the other pages of its sandbox, over one channel (the relay
 * process). A page joins a document when it opens the file and leaves when it closes it; messages
 * about documents nobody here has open are ignored, and a malformed one is dropped and counted,
 * never applied.
 */
export class SharedDocuments {
  /** Messages dropped as malformed. */
  dropped = 0
  private readonly open = new Map<string, SharedText>()
  private readonly stops: (() => void)[] = []
  private ticks = 0

  constructor(
    private readonly channel: BroadcastChannel,
    private readonly presence: Presence,
  ) {
    if (!channel.listenOnly) {
      const timer = setInterval(() => this.sendFullStates(), fullStateEveryMs)
      this.stops.push(() => clearInterval(timer))
    }
    this.stops.push(
      channel.onMessage((message) => this.receive(message)),
      channel.onStateChange(() => {
        if (channel.open) for (const doc of this.open.values()) doc.hello()
      }),
    )
  }

  /** Whether this page only listens (a view-only guest's): its copies come from the others' whole states. */
  get listenOnly(): boolean {
    return this.channel.listenOnly ?? false
  }

  /** Opens the shared copy of `path`, started from the others' copy or from `diskText`. */
  async join(path: string, diskText: string): Promise<SharedText> {
    if (diskText.length > maxSharedChars) throw new Error('too big to share')
    this.open.get(path)?.close()
    const doc = new SharedText(
      path,
      (kind, body) => this.channel.publish(topicOf(path), framed(kind, body)),
      this.channel.me,
      this.presence,
    )
    this.open.set(path, doc)
    this.sayDocs()
    await this.presence.settled()
    await doc.start(diskText, this.presence.pagesWith(path).length > 0, this.channel.listenOnly)
    return doc
  }

  /** Closes the shared copy (the file's tab closed). */
  leave(doc: SharedText): void {
    if (this.open.get(doc.path) === doc) this.open.delete(doc.path)
    doc.close()
    this.sayDocs()
  }

  dispose(): void {
    for (const doc of this.open.values()) doc.close()
    this.open.clear()
    for (const stop of this.stops) stop()
  }

  private receive(message: RelayMessage): void {
    if (!message.topic.startsWith('doc:')) return
    const doc = this.open.get(message.topic.slice(4))
    if (!doc || message.payload.length === 0) return
    try {
      doc.receive(message.payload[0] as number, message.payload.subarray(1))
    } catch {
      this.dropped++
    }
  }

  /** The page that leads a document sends its whole state after changes, and now and then. */
  private sendFullStates(): void {
    const idleTurn = ++this.ticks % fullStateIdleTicks === 0
    for (const doc of this.open.values())
      if (
        doc.leads &&
        (doc.changedSinceFull || idleTurn || (doc.unsaved && doc.text.length <= maxUnsavedEveryTurnChars)) &&
        doc.text.length > 0 &&
        doc.text.length <= maxListenedChars
      )
        doc.sendFullState()
  }

  private sayDocs(): void {
    this.presence.setDocs([...this.open.keys()])
  }
}
