import { useEffect, useRef } from 'react'

export interface MenuItem {
  label: string
  shortcut?: string
  run(): void
}

/** A context menu: arrow keys move, Enter runs, Escape or a click elsewhere closes. */
export function ContextMenu({
  items,
  x,
  y,
  onClose,
}: {
  items: MenuItem[]
  x: number
  y: number
  onClose(): void
}) {
  const menu = useRef<HTMLDivElement>(null)
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
    const close = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node)) onClose()
    }
    window.addEventListener('mousedown', close)
    return () => window.removeEventListener('mousedown', close)
  }, [onClose])
  const focusItem = (step: number) => {
    const all = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const at = all.indexOf(document.activeElement as HTMLElement)
    all[(at + step + all.length) % all.length]?.focus()
  }
  return (
    <div
      ref={menu}
      role="menu"
      aria-label="File actions"
      className="context-menu"
      style={{ left: x, top: y }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') focusItem(1)
        else if (e.key === 'ArrowUp') focusItem(-1)
        else if (e.key === 'Escape') onClose()
        else return
        e.preventDefault()
      }}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            onClose()
            item.run()
          }}
        >
          <span>{item.label}</span>
          {item.shortcut && <kbd>{item.shortcut}</kbd>}
        </button>
      ))}
    </div>
  )
}
