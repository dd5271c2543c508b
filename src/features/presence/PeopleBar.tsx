import { useEffect, useState } from 'react'
import type { Person, Presence } from '../../sandbox/collab/Presence'
import { displayName } from '../../ui/displayName'
import './people.css'

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]?.toUpperCase() ?? '')
    .join('') || '?'

const fileName = (path: string) => displayName(path.slice(path.lastIndexOf('/') + 1))

/**
 * The others who have this sandbox open, as avatars in the toolbar: their initials in their
 * colour (the colour of their caret in the editor). A click follows one of them (their file, their
 * cursor) until this person moves; a second click, or any key, stops.
 */
export function PeopleBar({
  presence,
  following,
  onFollow,
  onAskToFollow,
}: {
  presence: Presence
  following: string | undefined
  onFollow: (page: string) => void
  /** Asks everyone else to follow this person (a teacher's "look at this"). */
  onAskToFollow: () => void
}) {
  const [people, setPeople] = useState<Person[]>(() => presence.others())
  useEffect(() => {
    setPeople(presence.others())
    return presence.onChange(() => setPeople(presence.others()))
  }, [presence])
  if (people.length === 0) return null
  return (
    <fieldset className="people-bar" data-people-bar>
      <legend className="visually-hidden">People here</legend>
      {people.map((person) => {
        const where = person.cursor ? `, in ${fileName(person.cursor.path)}` : ''
        const followed = following === person.page
        return (
          <button
            key={person.page}
            type="button"
            className="person"
            style={{ background: person.color }}
            aria-pressed={followed}
            aria-label={`${person.name}${where}`}
            title={`${followed ? 'Stop following' : 'Follow'} ${person.name}${where}`}
            onClick={() => onFollow(person.page)}
          >
            {initials(person.name)}
          </button>
        )
      })}
      <button
        type="button"
        className="ask-follow"
        onClick={onAskToFollow}
        title="Bring everyone's editors to your file and cursor"
      >
        Follow me
      </button>
    </fieldset>
  )
}
