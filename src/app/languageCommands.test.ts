import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../sandbox/language/LanguageService'
import { languageCommands } from './languageCommands'

function fakeLanguage(servers: ServerStatus[]) {
  const restarted: (string | undefined)[] = []
  const installed: string[] = []
  const language = {
    getSnapshot: () => ({ servers }),
    restart: async (key?: string) => {
      restarted.push(key)
    },
    install: async (key: string) => {
      installed.push(key)
    },
  }
  return { language: language as never, restarted, installed }
}

describe('languageCommands', () => {
  it('offers nothing where code intelligence is off', () => {
    expect(languageCommands(undefined, () => {})).toEqual([])
  })

  it('shows the Problems panel with VS Code’s shortcut', () => {
    let shown = 0
    const [view] = languageCommands(fakeLanguage([]).language, () => shown++)
    expect([view?.title, view?.shortcut]).toEqual(['View: Problems', 'Ctrl+Shift+M'])
    view?.run()
    expect(shown).toBe(1)
  })

  it('restarts every server, running or not, and offers to install each missing one that says how', async () => {
    const { language, restarted, installed } = fakeLanguage([
      {
        key: 'python',
        name: 'Pyright',
        state: { kind: 'missing', reason: 'no', install: 'npm i -g pyright' },
      },
      { key: 'typescript', name: 'TypeScript', state: { kind: 'running' } },
      { key: 'go', name: 'gopls', state: { kind: 'missing', reason: 'no' } },
    ])
    const commands = languageCommands(language, () => {})
    expect(commands.map((c) => c.title)).toEqual([
      'View: Problems',
      'Language: Restart servers',
      'Language: Install Pyright',
    ])
    commands[1]?.run()
    expect(restarted).toEqual([undefined])
    commands[2]?.run()
    await expect.poll(() => installed).toEqual(['python'])
  })
})
