import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness'
import * as Y from 'yjs'
import { Subscribers } from '../../common/Subscribers'
import type { BroadcastChannel } from './SharedDocuments'

const topic = 'presence'
/** How long after its last key a person still shows as typing in a terminal. */
const typingLapseMs = 3_000
/** How long a page listens for the others' answers after it joins, before it takes itself for alone. */
const rollCallMs = 300

/** Where one person's cursor is: a file, and Yjs relative positions (JSON) into its shared text. */
export interface CursorPlace {
  path: string
  anchor: unknown
  head: unknown
}

/** One page of the sandbox as the others see it. */
export interface Person {
  /** The page's name on the channel. */
  page: string
  /** Awareness's number for it (what its cursor decorations are named by). */
  id: number
  name: string
  color: string
  /** Files it has open. */
  docs: string[]
  /** The file shown, and the cursor in it. */
  cursor: CursorPlace | undefined
  /** The process of the terminal it types into now, if any. */
  typing: number | undefined
  /** Changes each time it asks everyone to follow it (a teacher's "look at this"). */
  lead: number | undefined
}

const colors = ['#e06c75', '#61afef', '#98c379', '#c678dd', '#d19a66', '#56b6c2', '#e5c07b', '#be5046']

/** The person another page says it is, read defensively: anyone in the sandbox can write to the channel. */
function personOf(id: number, state: Record<string, unknown>): Person | undefined {
  const { page, name, color, docs, cursor, typing, lead } = state
  if (typeof page !== 'string' || page.length > 64) return undefined
  const place = cursor as Partial<CursorPlace> | undefined
  return {
    page,
    id,
    name: typeof name === 'string' && name.trim() ? name.slice(0, 64) : 'Someone',
    color:
      typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color)
        ? color
        : (colors[id % colors.length] as string),
    docs: Array.isArray(docs) ? docs.filter((d): d is string => typeof d === 'string').slice(0, 500) : [],
    cursor: place && typeof place.path === 'string' ? (place as CursorPlace) : undefined,
    typing: Number.isSafeInteger(typing) ? (typing as number) : undefined,
    lead: Number.isSafeInteger(lead) ? (lead as number) : undefined,
  }
}

/**
 * Who else has this sandbox open, what files they have open and where their cursor is: Yjs's
 * awareness protocol over the channel. Each page says its state when it joins and whenever it
 * changes (and every 15 s, awareness's heartbeat); one that goes quiet for 30 s is taken for gone.
 * A page that hears someone new answers with its own state, so a newcomer learns who is there.
 */
export class Presence {
  readonly awareness: Awareness
  private readonly doc = new Y.Doc()
  private readonly subscribers = new Subscribers()
  private readonly stops: (() => void)[] = []
  private rollCall: Promise<void> | undefined
  private kept: Record<string, unknown> | undefined
  private typingLapse: ReturnType<typeof setTimeout> | undefined
  /** While saying it leaves: that goes by the channel's last words, which outlive the page. */
  private leaving = false

  constructor(
    private readonly channel: BroadcastChannel,
    me: { name: string },
  ) {
    this.awareness = new Awareness(this.doc)
    this.awareness.setLocalState({
      page: channel.me,
      name: me.name,
      color: colors[this.doc.clientID % colors.length],
      docs: [],
    })
    const onUpdate = (
      { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
      origin: unknown,
    ) => {
      const changed = [...added, ...updated, ...removed]
      if (origin === 'local') this.publish(changed)
      else if (added.some((id) => id !== this.awareness.clientID)) this.publish([this.awareness.clientID])
      if (changed.some((id) => id !== this.awareness.clientID)) this.subscribers.notify()
    }
    this.awareness.on('update', onUpdate)
    this.stops.push(
      () => this.awareness.off('update', onUpdate),
      channel.onMessage((message) => {
        if (message.topic !== topic) return
        try {
          applyAwarenessUpdate(this.awareness, message.payload, message.sender)
        } catch {
          // Malformed: dropped; the sender's next heartbeat says it again.
        }
      }),
      channel.onStateChange(() => {
        if (channel.open) this.publish([this.awareness.clientID])
      }),
    )
  }

  /** Resolves once the page has been on the channel long enough to have heard who else is. */
  settled(): Promise<void> {
    this.rollCall ??= this.channel
      .connect()
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, rollCallMs)))
      .catch(() => {})
    return this.rollCall
  }

  /** Everyone else on the sandbox now. */
  others(): Person[] {
    const people: Person[] = []
    for (const [id, state] of this.awareness.getStates()) {
      if (id === this.awareness.clientID) continue
      const person = personOf(id, state)
      if (person) people.push(person)
    }
    return people
  }

  /** The pages (by channel name) that have `path` open, this one left out. */
  pagesWith(path: string): string[] {
    return this.others()
      .filter((p) => p.docs.includes(path))
      .map((p) => p.page)
  }

  /** Changes how the others see this person (the session said whose sandbox this is). */
  setName(name: string): void {
    if (this.awareness.getLocalState()?.name !== name) this.awareness.setLocalStateField('name', name)
  }

  /** Says this person types into the terminal of process `pid` now; it lapses after a few seconds without keys. */
  setTyping(pid: number): void {
    clearTimeout(this.typingLapse)
    this.typingLapse = setTimeout(() => this.awareness.setLocalStateField('typing', undefined), typingLapseMs)
    if (this.awareness.getLocalState()?.typing !== pid) this.awareness.setLocalStateField('typing', pid)
  }

  /** Who types into the terminal of process `pid` now, this page left out. */
  typingIn(pid: number): Person[] {
    return this.others().filter((p) => p.typing === pid)
  }

  /** Asks everyone else to follow this person (their pages start following it). */
  askToFollow(): void {
    this.awareness.setLocalStateField('lead', (this.awareness.getLocalState()?.lead ?? 0) + 1)
  }

  /** Says which files this page has open. */
  setDocs(docs: string[]): void {
    this.awareness.setLocalStateField('docs', docs)
  }

  /** Says where this page's cursor is (undefined: no file shown). */
  setCursor(cursor: CursorPlace | undefined): void {
    this.awareness.setLocalStateField('cursor', cursor)
  }

  /** Says this page is gone (the tab closes, or goes into the back/forward cache), or back again. */
  setAway(away: boolean): void {
    if (away) {
      this.kept = this.awareness.getLocalState() ?? this.kept
      this.leaving = true
      try {
        this.awareness.setLocalState(null)
      } finally {
        this.leaving = false
      }
    } else if (this.kept && !this.awareness.getLocalState()) this.awareness.setLocalState(this.kept)
  }

  /** Called when someone comes, goes, or moves. */
  onChange = this.subscribers.add

  dispose(): void {
    clearTimeout(this.typingLapse)
    this.awareness.setLocalState(null)
    for (const stop of this.stops) stop()
    this.awareness.destroy()
    this.doc.destroy()
    this.subscribers.clear()
  }

  private publish(ids: number[]): void {
    const update = encodeAwarenessUpdate(this.awareness, ids)
    if (this.leaving && this.channel.publishLast) this.channel.publishLast(topic, update)
    else this.channel.publish(topic, update)
  }
}
