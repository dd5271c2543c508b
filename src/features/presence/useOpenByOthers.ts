import { useEffect, useState } from 'react'
import type { Presence } from '../../sandbox/collab/Presence'

/** Who else has a file open: their names and colours, by path. */
export type OpenByOthers = ReadonlyMap<string, readonly { name: string; color: string }[]>

const none: OpenByOthers = new Map()

function openByOthers(presence: Presence): OpenByOthers {
  const byPath = new Map<string, { name: string; color: string }[]>()
  for (const { name, color, docs } of presence.others())
    for (const path of docs) byPath.set(path, [...(byPath.get(path) ?? []), { name, color }])
  return byPath
}

/** A map's contents as one string, to tell a change from a mere cursor move. */
function keyOf(map: OpenByOthers): string {
  return JSON.stringify([...map].sort(([a], [b]) => (a < b ? -1 : 1)))
}

/**
 * The files others have open, for the explorer to mark. Presence changes with every cursor move
 * of everyone; the map (and so the tree's rows) changes only when who has what open does.
 */
export function useOpenByOthers(presence: Presence | undefined): OpenByOthers {
  const [state, setState] = useState<{ map: OpenByOthers; key: string }>({ map: none, key: '[]' })
  useEffect(() => {
    if (!presence) {
      setState({ map: none, key: '[]' })
      return
    }
    const update = () => {
      const map = openByOthers(presence)
      const key = keyOf(map)
      setState((current) => (current.key === key ? current : { map, key }))
    }
    update()
    return presence.onChange(update)
  }, [presence])
  return state.map
}
