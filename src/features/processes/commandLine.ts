import { parseLanguageTag } from '../../sandbox/language/serverTag'
import type { ProcessConfig } from '../../sandbox/sandboxProcesses'

/** What a command line is made of. */
type Command = Pick<ProcessConfig, 'cmd' | 'args'>

/** Tags the IDE gives the shells of its own terminals (see TerminalManager). */
const ideTerminalPrefix = 'ide-terminal:'

/** A shell-like rendering of cmd and args: arguments with spaces or quotes are single-quoted. */
export function commandLine(config: Command | undefined): string {
  if (!config) return ''
  return [config.cmd, ...config.args].map(quote).join(' ')
}

/** Whether a process is the shell of one of the IDE's terminals. */
export function isIdeTerminal(tag: string | undefined): boolean {
  return tag?.startsWith(ideTerminalPrefix) ?? false
}

/**
 * What a process of code intelligence is called in the list, in place of its long shell line (a
 * watchdog and the server's command): the server's own name. Undefined for any other process.
 */
export function languageProcessLabel(tag: string | undefined): string | undefined {
  const process = parseLanguageTag(tag)
  if (!process) return undefined
  return process.kind === 'server'
    ? `Language server: ${process.name}`
    : `Installing language server: ${process.name}`
}

/** A short name for a terminal attached to a process: the program's file name and the pid. */
export function attachTitle(config: Command | undefined, pid: number): string {
  const program = config?.cmd.split('/').at(-1) || 'process'
  return `${program} ${pid}`
}

function quote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word
  return `'${word.replaceAll("'", `'\\''`)}'`
}
