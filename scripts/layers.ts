// The layers of the code, in one table: where each one lives, what it may import, and why.
// `npm run lint` checks every import of src/, server/ and packages/ against it (scripts/checkLayers.ts), and
// every message it prints is made from this table, so a rule is written, and explained, once.

/** One part of the code and the parts it may import. */
export interface Layer {
  /** A folder (or a file), relative to the project's root; a file belongs to the most specific one. */
  readonly folder: string
  /** The layers (by folder) its files may import, besides its own. */
  readonly mayImport: readonly string[]
  /** Only the files right in the folder belong to it, not its sub-folders (an entry point's). */
  readonly filesOnly?: boolean
  /** Each sub-folder is a unit of its own, which may not import its siblings. */
  readonly unitsApart?: string
  /** Why it sits where it does: said in every message about it. */
  readonly why: string
}

/** Packages that only some layers may import. */
export interface PackageRule {
  /** Package names; `@scope/*` stands for every package of the scope. */
  readonly packages: readonly string[]
  /** The layers (by folder) that may import them. */
  readonly onlyIn: readonly string[]
  readonly why: string
}

const browserBase = ['src/common', 'src/contract']
/** What the stack's parts stand on: the wire, its configuration, and its HTTP basics. */
const stackBase = ['src/gen', 'src/contract', 'server/config.ts', 'server/nodeFlags.ts', 'server/http']

export const layers: readonly Layer[] = [
  {
    folder: 'src/common',
    mayImport: [],
    why: 'what every layer of the page may use; it stands alone and imports nothing of src/',
  },
  {
    folder: 'src/contract',
    mayImport: ['src/gen'],
    why: 'what the page and the stack share beyond the .proto (server/ imports it too), so it stands on the generated code alone',
  },
  { folder: 'src/gen', mayImport: [], why: 'generated from proto/ by `npm run gen`, never edited' },
  {
    folder: 'packages/embed',
    mayImport: [],
    why: 'the client a parent page installs (@sandbox-ide/embed) and the protocol it shares with the IDE; it depends on nothing',
  },
  {
    folder: 'src/api',
    mayImport: [...browserBase, 'src/gen'],
    why: 'the wire: transports, Connect clients, /files, /ide/api; it knows nothing of what uses it',
  },
  {
    folder: 'src/sandbox',
    mayImport: [...browserBase, 'src/gen', 'src/api'],
    why: 'the domain layer: the one way the rest of the page reaches a sandbox, so features are tested with its fakes and never see an RPC',
  },
  {
    folder: 'src/ui',
    mayImport: browserBase,
    why: 'small shared components, knowing nothing of sandboxes',
  },
  {
    folder: 'src/features',
    unitsApart: 'a feature never imports another: they meet in stores and in the workbench',
    mayImport: [...browserBase, 'src/sandbox', 'src/ui'],
    why: 'the terminal, the explorer, the editor and the other views, each on the domain layer alone',
  },
  {
    folder: 'src/workbench',
    mayImport: [...browserBase, 'src/sandbox', 'src/ui', 'src/features'],
    why: 'where the features meet: the Workspace and the layout, used by app/ and embed/ alike',
  },
  {
    folder: 'src/embed',
    mayImport: [...browserBase, 'src/sandbox', 'src/ui', 'src/features', 'src/workbench'],
    why: 'the workbench inside another site’s page, and its postMessage protocol',
  },
  {
    folder: 'src/app',
    mayImport: [...browserBase, 'src/sandbox', 'src/ui', 'src/features', 'src/workbench', 'src/embed'],
    why: 'the page itself: routes, sign-in, the palette',
  },
  { folder: 'src', filesOnly: true, mayImport: ['src/app'], why: 'the entry point, which renders the app' },
  {
    folder: 'server/runtime',
    mayImport: ['src/gen', 'src/contract', 'server/http'],
    why: 'a sandbox’s runtime runs alone, as envd does: never with the platform',
  },
  {
    folder: 'server/http',
    mayImport: [],
    why: 'what every server of the stack shares (timeouts, unread bodies), below all of them',
  },
  {
    folder: 'server/platform',
    mayImport: [...stackBase, 'server/runtime'],
    why: 'the E2B platform API, the router and the sandboxes it launches',
  },
  {
    folder: 'server/class',
    mayImport: ['src/contract', 'server/platform', 'server/http'],
    why: '`npm run class`, a client of a running stack',
  },
  {
    folder: 'server/testing',
    mayImport: ['server/http'],
    why: 'fixtures for tests and benches: a delaying proxy, the stack as a process of its own',
  },
  {
    folder: 'server/fuzz',
    mayImport: [...stackBase, 'server/platform', 'server/runtime', 'server/testing'],
    why: 'the fuzz and fault suites of every server',
  },
  {
    folder: 'server/config.ts',
    mayImport: ['server/nodeFlags.ts'],
    why: 'the stack’s configuration, read once at start: its one home on the server side',
  },
  {
    folder: 'server/nodeFlags.ts',
    mayImport: [],
    why: 'the flags Node runs the platform and every runtime with',
  },
  {
    folder: 'server',
    filesOnly: true,
    mayImport: [...stackBase, 'server/platform', 'server/runtime', 'server/class'],
    why: 'the stack’s command lines and configuration, which put the platform together',
  },
]

export const packageRules: readonly PackageRule[] = [
  {
    packages: ['@connectrpc/*', '@bufbuild/*'],
    onlyIn: [
      'src/gen',
      'src/api',
      'src/sandbox',
      'server',
      'server/runtime',
      'server/platform',
      'server/fuzz',
    ],
    why: 'Connect and protobuf are the wire, the domain layer’s business: above it, code sees SandboxFiles, SandboxProcesses and SandboxError, so a change of transport or an envd quirk stays in src/api/ and src/sandbox/',
  },
  {
    packages: ['react', 'react-dom', 'zustand', '@tanstack/*'],
    onlyIn: ['src/ui', 'src/features', 'src/workbench', 'src/embed', 'src/app', 'src'],
    why: 'below the views, streams and state are plain TypeScript classes with dispose(), which React only subscribes to',
  },
  {
    packages: ['@sandbox-ide/embed'],
    onlyIn: ['src/embed'],
    why: 'the IDE speaks the embed protocol in src/embed/ alone, where its host answers the parent page',
  },
  {
    packages: ['@sandbox-ide/fs-entries'],
    onlyIn: ['server/runtime'],
    why: 'the native directory reader and inotify serve the runtime’s listings and watches, and are bound into sandboxes for it alone',
  },
  {
    packages: ['@xterm/*'],
    onlyIn: ['src/features/terminal'],
    why: 'xterm.js is the terminal feature’s; the rest of the page reaches terminals through it',
  },
  {
    packages: ['monaco-editor'],
    onlyIn: ['src/features/editor'],
    why: 'Monaco is the editor feature’s, and is loaded lazily when the first file opens',
  },
]
