import { Subscribers } from '../common/Subscribers'
import type { EditorManager } from '../features/editor/EditorManager'
import type { Person, Presence } from '../sandbox/collab/Presence'

/**
 * Follow: the editor shows what another person has in front of them (their file, their cursor
 * in view) until this person does something of their own (a key, a click outside the people
 * bar), as VS Code Live Share and Google Docs follow. Those events are watched only while
 * following.
 */
export class FollowPerson {
  private page: string | undefined
  private shown: string | undefined
  private readonly subscribers = new Subscribers()
  private stopWatching: (() => void) | undefined
  /** Each person's last request to be followed, as first seen here (older ones were made before this page came). */
  private readonly leads = new Map<string, number | undefined>()
  private readonly stopAsked: () => void

  constructor(
    private readonly presence: Presence,
    private readonly editor: EditorManager,
    /** Says that someone asked to be followed, and how to stop. */
    private readonly told: (text: string) => void = () => {},
  ) {
    this.stopAsked = presence.onChange(() => this.followWhenAsked())
    this.followWhenAsked()
  }

  subscribe = this.subscribers.add

  /** The page followed now, if any. */
  getSnapshot = (): string | undefined => this.page

  /** Follows the person on `page` (or stops, if that one is followed already). */
  toggle(page: string): void {
    if (this.page === page) this.stop()
    else this.start(page)
  }

  stop(): void {
    if (this.page === undefined) return
    this.page = undefined
    this.shown = undefined
    this.stopWatching?.()
    this.stopWatching = undefined
    this.subscribers.notify()
  }

  dispose(): void {
    this.stop()
    this.stopAsked()
    this.subscribers.clear()
  }

  /** Someone asked everyone to follow them ("look at this"): this page does, until its person moves. */
  private followWhenAsked(): void {
    for (const person of this.presence.others()) {
      const known = this.leads.has(person.page)
      const before = this.leads.get(person.page)
      this.leads.set(person.page, person.lead)
      if (!known || person.lead === undefined || person.lead === before || this.page === person.page) continue
      this.start(person.page)
      this.told(`${person.name} asked everyone to follow: click or type to stop following`)
    }
  }

  private start(page: string): void {
    this.stop()
    this.page = page
    const stopPresence = this.presence.onChange(() => this.show())
    // Anything this person does of their own ends it; what happens in the people bar does not.
    const ownMove = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest('[data-people-bar]')) this.stop()
    }
    document.addEventListener('keydown', ownMove, true)
    document.addEventListener('pointerdown', ownMove, true)
    this.stopWatching = () => {
      stopPresence()
      document.removeEventListener('keydown', ownMove, true)
      document.removeEventListener('pointerdown', ownMove, true)
    }
    this.subscribers.notify()
    this.show()
  }

  /** Brings the followed person's file and cursor into view, when they moved. */
  private show(): void {
    const person = this.presence.others().find((p: Person) => p.page === this.page)
    if (!person) {
      // Gone: there is nobody to follow.
      this.stop()
      return
    }
    const cursor = person.cursor
    if (!cursor) return
    const key = JSON.stringify(cursor)
    if (key === this.shown) return
    this.shown = key
    const at = this.editor.bufferOf(cursor.path)?.placeOf(cursor)
    void this.editor.open(cursor.path, { focus: false, at }).then(() => {
      // Opened just now: its shared text is here, so the place can be found and shown.
      if (at || this.page !== person.page) return
      const place = this.editor.bufferOf(cursor.path)?.placeOf(cursor)
      if (place) void this.editor.open(cursor.path, { focus: false, at: place })
    })
  }
}
