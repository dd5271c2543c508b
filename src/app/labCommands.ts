import type { LabController } from '../features/lab/LabController'
import type { Command } from './commands'

/** The lab's palette entries, while the sandbox holds a lab. */
export function labCommands(lab: LabController | undefined): Command[] {
  const state = lab?.getSnapshot().lab
  if (!lab || state?.kind !== 'ready') return []
  const commands: Command[] = []
  if (state.manifest.check) {
    commands.push({
      id: 'lab.check',
      title: 'Lab: Check',
      enabled: lab.canCheck,
      run: () => void lab.check(),
    })
  }
  if (state.manifest.reset !== false) {
    commands.push({
      id: 'lab.reset',
      title: 'Lab: Reset to the starting files…',
      enabled: lab.canReset,
      run: () => lab.requestReset(),
    })
  }
  return commands
}
