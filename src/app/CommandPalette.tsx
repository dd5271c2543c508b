import { Command as Cmdk } from 'cmdk'
import type { Command } from './commands'

/** Every action by name, from the keyboard (Ctrl/Cmd+Shift+P). */
export function CommandPalette({
  open,
  onOpenChange,
  commands,
}: {
  open: boolean
  onOpenChange(open: boolean): void
  commands: Command[]
}) {
  return (
    <Cmdk.Dialog
      open={open}
      onOpenChange={onOpenChange}
      label="Command palette"
      contentClassName="palette"
      overlayClassName="palette-overlay"
    >
      <Cmdk.Input placeholder="Type a command" aria-label="Command" />
      <Cmdk.List>
        <Cmdk.Empty>No command matches.</Cmdk.Empty>
        {commands
          .filter((c) => c.enabled)
          .map((c) => (
            <Cmdk.Item
              key={c.id}
              value={c.title}
              onSelect={() => {
                onOpenChange(false)
                c.run()
              }}
            >
              <span>{c.title}</span>
              {c.shortcut && <kbd>{c.shortcut}</kbd>}
            </Cmdk.Item>
          ))}
      </Cmdk.List>
    </Cmdk.Dialog>
  )
}
