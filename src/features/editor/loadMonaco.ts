/** What the lazy chunk offers once loaded. */
export type MonacoModule = typeof import('./monacoSetup')

let loading: Promise<MonacoModule> | undefined
let loaded: MonacoModule | undefined
// Monaco's TypeScript worker reads its modes once, at the first model: the choice is made before
// anyone else gets the module, without loading Monaco before a file opens.
let builtInTypeScript = true

/** Loads Monaco (once) when the first file opens; a failed load may be tried again. */
export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./monacoSetup').then(
    (module) => {
      module.setBuiltInTypeScript(builtInTypeScript)
      loaded = module
      return module
    },
    (err: unknown) => {
      loading = undefined
      throw err
    },
  )
  return loading
}

/** Whether Monaco's own TypeScript service answers (off where a sandbox's server does). */
export function preferBuiltInTypeScript(on: boolean): void {
  builtInTypeScript = on
  loaded?.setBuiltInTypeScript(on)
}
