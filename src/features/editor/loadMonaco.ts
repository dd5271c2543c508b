/** What the lazy chunk offers once loaded. */
export type MonacoModule = typeof import('./monacoSetup')

let loading: Promise<MonacoModule> | undefined

/** Loads Monaco (once) when the first file opens; a failed load may be tried again. */
export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./monacoSetup').catch((err: unknown) => {
    loading = undefined
    throw err
  })
  return loading
}
