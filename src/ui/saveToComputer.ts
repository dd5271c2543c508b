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
