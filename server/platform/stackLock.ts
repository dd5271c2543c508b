import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { readRecordFile, writeRecordFile } from './recordFile'

/** The data folder is some other running stack's: two on one folder would mount over each other. */
export class DataFolderInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `the data folder ${dataDir} is in use by a stack that is running (pid ${pid}): stop it, or give this one another --data`,
    )
    this.name = 'DataFolderInUseError'
  }
}

/**
 * A running process's start time (clock ticks since boot), which tells it apart from a later one
 * with its pid; undefined once it has ended (a zombie has: only its parent has not looked yet).
 */
function startTime(pid: number): string | undefined {
  try {
    // The fields after the command's closing parenthesis: its state, …, its start time (the 22nd in all).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19]
  } catch {
    return undefined
  }
}

/** The data folder, held by this stack until `release`. */
export interface StackLock {
  /** The pid of a stack that held the folder and ended without letting go (killed, or died), if one did. */
  readonly predecessor?: number
  release(): void
}

/**
 * Takes the data folder for this stack: `<data>/stack.pid` names it (pid and start time) while it
 * runs. A folder another live stack holds throws DataFolderInUseError; one whose holder is gone
 * was left by a stack that did not stop, whose mounts the caller cleans up.
 */
export function lockDataFolder(dataDir: string): StackLock {
  const path = join(dataDir, 'stack.pid')
  const [pidText, started] = readRecordFile(path)?.trim().split(' ') ?? []
  const pid = Number(pidText)
  const holderLives = Number.isInteger(pid) && pid > 0 && started !== undefined && startTime(pid) === started
  if (holderLives) throw new DataFolderInUseError(dataDir, pid)
  writeRecordFile(path, `${process.pid} ${startTime(process.pid)}\n`)
  return {
    ...(pidText ? { predecessor: pid } : {}),
    release: () => rmSync(path, { force: true }),
  }
}
