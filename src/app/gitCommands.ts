import type { SourceControl } from '../sandbox/git/SourceControl'
import { reportErrors } from '../ui/notifications'
import type { Command } from './commands'

/**
 * Source control's palette entries: the view (Ctrl+Shift+G) and git's everyday actions, each
 * shown in the view; enabled as the repository allows (none before its code has loaded).
 */
export function gitCommands(scm: SourceControl | undefined, show: () => void, commit: () => void): Command[] {
  const state = scm?.getSnapshot().state
  const repository = state?.kind === 'repository'
  const remote = repository && state.remotes.length > 0
  const git = (what: string, action: (scm: SourceControl) => Promise<void>) => () => {
    show()
    if (scm) void reportErrors(what, () => action(scm))
  }
  return [
    { id: 'view.scm', title: 'View: Source Control', shortcut: 'Ctrl+Shift+G', enabled: true, run: show },
    { id: 'git.commit', title: 'Git: Commit', enabled: repository, run: commit },
    {
      id: 'git.stageAll',
      title: 'Git: Stage All',
      enabled: repository,
      run: git('Stage All failed', (s) => s.stageAll()),
    },
    { id: 'git.pull', title: 'Git: Pull', enabled: remote, run: git('Pull failed', (s) => s.pull()) },
    { id: 'git.push', title: 'Git: Push', enabled: remote, run: git('Push failed', (s) => s.push()) },
    {
      id: 'git.init',
      title: 'Git: Initialize Repository',
      enabled: state?.kind === 'none',
      run: git('Initialize failed', (s) => s.init()),
    },
  ]
}
