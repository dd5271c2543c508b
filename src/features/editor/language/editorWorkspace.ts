import type { EditorRange } from '../EditorManager'
import type { TextBuffer } from '../TextBuffer'

/** What code intelligence needs of the editor and the sandbox's files. */
export interface EditorWorkspace {
  /** The buffer of an open file, once loaded. */
  bufferOf(path: string): TextBuffer | undefined
  /** A file's bytes on disk. */
  read(path: string): Promise<Uint8Array>
  /** Writes a file that is not open (a rename's edit to it). */
  write(path: string, bytes: Uint8Array): Promise<void>
  /** Opens a file in the editor, at a place of it. */
  open(path: string, at?: EditorRange): Promise<void>
}
