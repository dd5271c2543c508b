import type { EntryInfo, SandboxFiles } from '../sandboxFiles'
import { changedSinceSearch, replaceInText } from './replaceInText'
import type { FileMatches } from './textQuery'

/** The files a replace reads, checks and writes. */
export type ReplaceFiles = Pick<SandboxFiles, 'stat' | 'read' | 'write'>

/** A file replaced on disk: its bytes before and after, so the replace can be undone. */
export interface ReplacedFile {
  path: string
  before: Uint8Array<ArrayBuffer>
  after: Uint8Array<ArrayBuffer>
  /** Matches replaced. */
  count: number
}

/** A file left as it was, and why (in words the view shows). */
export interface SkippedFile {
  path: string
  reason: string
}

/** What a replace on disk did: the files it wrote, and those it left alone with why. */
export interface ReplaceOutcome {
  replaced: ReplacedFile[]
  skipped: SkippedFile[]
}

/** Larger files are not read into the page to be replaced in. */
const maxReplaceBytes = 64 * 1024 * 1024
/** Files read and written at once. */
const parallel = 8

const version = (entry: EntryInfo) =>
  `${entry.size}:${entry.modifiedTime?.seconds ?? ''}.${entry.modifiedTime?.nanos ?? ''}`

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** Runs `task` on each item, `parallel` at a time. */
async function eachLimited<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker))
}

/**
 * Replaces the matches of files that are not open, on disk, without overwriting what the search
 * did not see: a file whose size differs from the searched one, or any of whose matched lines
 * differs, is skipped and listed; one that changes while it is replaced (its Stat moves between
 * the read and the write) too. As the editor's save, the last Stat and the write are not one
 * step (the runtime has no compare-and-swap write): a write by someone else in those few
 * milliseconds would be missed.
 */
export async function replaceInFiles(
  files: ReplaceFiles,
  targets: readonly FileMatches[],
  replacementFor: (matched: string) => string,
): Promise<ReplaceOutcome> {
  const outcome: ReplaceOutcome = { replaced: [], skipped: [] }
  const skip = (path: string, reason: string) => void outcome.skipped.push({ path, reason })
  await eachLimited(targets, async ({ path, matches, size }) => {
    try {
      const first = await files.stat(path)
      if (Number(first.size) > maxReplaceBytes) return skip(path, 'it is too big to replace in here')
      if (size !== undefined && Number(first.size) !== size) return skip(path, changedSinceSearch)
      const before = (await files.read(path)) as Uint8Array<ArrayBuffer>
      let text: string
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(before)
      } catch {
        return skip(path, 'it is not UTF-8 text')
      }
      const replaced = replaceInText(text, matches, replacementFor)
      if ('reason' in replaced) return skip(path, replaced.reason)
      const after = new TextEncoder().encode(replaced.text)
      if (version(await files.stat(path)) !== version(first))
        return skip(path, 'it changed while it was replaced')
      await files.write(path, after)
      outcome.replaced.push({ path, before, after, count: replaced.count })
    } catch (err) {
      skip(path, messageOf(err))
    }
  })
  return outcome
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Undoes a replace on disk: each file gets its old bytes back if it still holds what the replace
 * wrote; one changed since is left as it is and listed.
 */
export async function undoReplaceInFiles(
  files: ReplaceFiles,
  replaced: readonly ReplacedFile[],
): Promise<{ restored: string[]; skipped: SkippedFile[] }> {
  const restored: string[] = []
  const skipped: SkippedFile[] = []
  await eachLimited(replaced, async ({ path, before, after }) => {
    try {
      if (!sameBytes(await files.read(path), after)) {
        skipped.push({ path, reason: 'it changed since the replace' })
        return
      }
      await files.write(path, before)
      restored.push(path)
    } catch (err) {
      skipped.push({ path, reason: messageOf(err) })
    }
  })
  return { restored, skipped }
}
