// The postMessage protocol between a page that embeds the IDE (the parent) and the IDE in its
// iframe. Its types and name: the parent's client (client.ts) and the IDE's host (src/embed/embedHost.ts)
// share it; the IDE imports it as @sandbox-ide/embed/protocol.
//
// 1. The IDE posts `hello` to its parent (no secrets in it), again every half second until
//    connected, so a parent that starts listening late still hears it.
// 2. The parent answers `connect` to the IDE's origin only, with the runtime URL and access token
//    and a MessagePort. The IDE accepts it only from its parent window and an allowed origin.
// 3. Everything else travels over that port, which only the parent holds: requests and their
//    responses, and events.

export const embedProtocol = 'sandbox-ide/1'

export type PanelName = 'files' | 'editor' | 'terminal' | 'preview'
export type ThemeName = 'light' | 'dark' | 'system'

/** The IDE's first message to its parent. */
export interface HelloMessage {
  type: 'sandbox-ide:hello'
  protocol: typeof embedProtocol
}

/** The parent's answer, with a MessagePort in `ports[0]`. */
export interface ConnectMessage {
  type: 'sandbox-ide:connect'
  protocol: typeof embedProtocol
  runtimeUrl: string
  /** Null for a sandbox created without one. */
  accessToken: string | null
}

/** What the parent can ask, with what it sends and what it gets back. */
export interface EmbedCommands {
  /** Opens a file (absolute, or relative to the home folder) in the editor. */
  openFile: { params: { path: string }; result: null }
  /** A text file's content, as UTF-8. */
  readFile: { params: { path: string }; result: { content: string } }
  /** Writes a text file (creating folders); an open, unchanged editor tab reloads it. */
  writeFile: { params: { path: string; content: string }; result: null }
  /**
   * Runs a shell command in a new terminal, once the user agrees (unless the IDE trusts this
   * parent). Resolves when it starts; `processExited` says how it ended.
   */
  runCommand: { params: { command: string; cwd?: string }; result: { pid: number } }
  setTheme: { params: { theme: ThemeName }; result: null }
  /** Which panels are shown. */
  setLayout: { params: { panels: PanelName[] }; result: null }
  /**
   * Shows a port of the sandbox in the preview panel (at `path`); it loads once the port opens.
   * The parent never needs the port's URL: it carries no secret, but the IDE knows the address.
   */
  openPreview: { params: { port: number; path?: string }; result: null }
  /** Moves the keyboard focus into the IDE (to a panel, or the editor where one is open). */
  focus: { params: { panel?: PanelName }; result: null }
}

export type CommandName = keyof EmbedCommands

/** What the IDE tells the parent. */
export interface EmbedEvents {
  /** The handshake is done and the sandbox answers. */
  ready: { panels: PanelName[]; readOnly: boolean }
  fileSaved: { path: string }
  processExited: { pid: number; command: string; exitCode: number | null; status: string }
  stateChanged: {
    state: 'connecting' | 'running' | 'paused' | 'reconnecting' | 'unreachable' | 'gone' | 'signed-out'
  }
  /** A program in the sandbox started listening on a port (seen within about 2 s). */
  portOpened: { port: number }
  /** Nothing listens on that port any more. */
  portClosed: { port: number }
}

export type EventName = keyof EmbedEvents

/** Port messages, parent to IDE. */
export interface RequestMessage<C extends CommandName = CommandName> {
  kind: 'request'
  id: number
  method: C
  params: EmbedCommands[C]['params']
}

/** Why a request failed: `declined` when the user said no, `denied` for a read-only embed. */
export type ErrorCode = 'invalid' | 'declined' | 'denied' | 'failed' | 'unknown-method'

/** Port messages, IDE to parent. */
export type ResponseMessage =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: { code: ErrorCode; message: string } }

export interface EventMessage<E extends EventName = EventName> {
  kind: 'event'
  event: E
  data: EmbedEvents[E]
}
