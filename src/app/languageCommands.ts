import type { LanguageService } from '../sandbox/language/LanguageService'
import type { Command } from './commands'

/** Code intelligence's palette entries, where it is on: the Problems panel and the servers. */
export function languageCommands(language: LanguageService | undefined, showProblems: () => void): Command[] {
  if (!language) return []
  const { servers } = language.getSnapshot()
  return [
    {
      id: 'view.problems',
      title: 'View: Problems',
      shortcut: 'Ctrl+Shift+M',
      enabled: true,
      run: showProblems,
    },
    {
      id: 'language.restart',
      title: 'Language: Restart servers',
      enabled: servers.length > 0,
      // Running servers too: a fresh start is what a user asks for when one misbehaves.
      run: () => void language.restart(),
    },
    // One entry per server that can be installed, named, so the palette finds "install pyright".
    ...servers.flatMap(({ key, name, state }) =>
      state.kind === 'missing' && state.install
        ? [
            {
              id: `language.install.${key}`,
              title: `Language: Install ${name}`,
              enabled: true,
              // The status bar's code (loaded with it) shows the install as it runs.
              run: () =>
                void import('../features/statusbar/serverInstalls').then(({ serverInstalls }) =>
                  serverInstalls(language).install(key, name),
                ),
            },
          ]
        : [],
    ),
  ]
}
