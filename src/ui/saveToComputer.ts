/** Saves bytes to the user's computer under `name` (a download the page starts itself). */
export function saveToComputer(data: Uint8Array | Blob, name: string): void {
  const blob = data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>])
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** What `saveSandboxFile` needs of a sandbox's files. */
interface SavableFiles {
  saveLink(path: string): Promise<string | undefined>
  read(path: string): Promise<Uint8Array>
}

/**
 * Saves a sandbox's file to the user's computer under `name`: through a signed link the browser
 * downloads and streams to disk where the runtime makes one (a file of gigabytes never enters
 * the page), else through its bytes read into the page.
 */
export async function saveSandboxFile(files: SavableFiles, path: string, name: string): Promise<void> {
  const link = await files.saveLink(path)
  if (!link) return saveToComputer(await files.read(path), name)
  // The answer is an attachment: the browser saves it and the page stays where it is.
  const anchor = document.createElement('a')
  anchor.href = link
  anchor.rel = 'noopener'
  anchor.click()
}
