// The parent page's side of the embed protocol (protocol.ts): a small typed client with no
// dependencies, published as @sandbox-ide/embed. The stack's demo page gets it as /embed-client.js.
import {
  type CommandName,
  type ConnectMessage,
  type EmbedCommands,
  type EmbedEvents,
  type ErrorCode,
  type EventMessage,
  type EventName,
  embedProtocol,
  type PanelName,
  type ResponseMessage,
  type ThemeName,
} from './protocol.js'

export type { EmbedEvents, ErrorCode, PanelName, ThemeName }

/** A request the IDE refused or that failed in the sandbox. */
export class EmbedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'EmbedError'
  }
}

export interface ConnectOptions {
  /** The sandbox's runtime, e.g. https://49983-{id}.e2b.app */
  runtimeUrl: string
  /** Its envdAccessToken (null for a sandbox without one). Sent only to the iframe's origin. */
  accessToken: string | null
  /** How long to wait for the IDE's hello (default 30 s). */
  timeoutMs?: number
}

type Listener<E extends EventName> = (data: EmbedEvents[E]) => void

/**
 * Connects to the IDE in `iframe` (its `src` is the IDE's /embed URL): waits for its hello,
 * hands over the sandbox's runtime and token, and resolves once the IDE is ready.
 */
export function connectIde(iframe: HTMLIFrameElement, options: ConnectOptions): Promise<EmbeddedIde> {
  // The token goes to this origin only: if the frame is navigated elsewhere, nothing is sent.
  const ideOrigin = new URL(iframe.src, location.href).origin
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      window.removeEventListener('message', onHello)
      reject(new Error(`the IDE at ${ideOrigin} did not answer (is this origin on its embed allowlist?)`))
    }, options.timeoutMs ?? 30_000)
    const onHello = (event: MessageEvent) => {
      if (event.source !== iframe.contentWindow || event.origin !== ideOrigin) return
      if (event.data?.type !== 'sandbox-ide:hello' || event.data?.protocol !== embedProtocol) return
      window.removeEventListener('message', onHello)
      const channel = new MessageChannel()
      const ide = new EmbeddedIde(channel.port1)
      const connect: ConnectMessage = {
        type: 'sandbox-ide:connect',
        protocol: embedProtocol,
        runtimeUrl: options.runtimeUrl,
        accessToken: options.accessToken,
      }
      iframe.contentWindow?.postMessage(connect, ideOrigin, [channel.port2])
      ide.once('ready', () => {
        clearTimeout(timer)
        resolve(ide)
      })
    }
    window.addEventListener('message', onHello)
  })
}

/** The IDE in an iframe, connected: commands return promises; events have listeners. */
export class EmbeddedIde {
  private nextId = 1
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>()
  private readonly listeners = new Map<EventName, Set<(data: unknown) => void>>()

  constructor(private readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<ResponseMessage | EventMessage>) => this.receive(event.data)
  }

  openFile(path: string): Promise<null> {
    return this.call('openFile', { path })
  }

  async readFile(path: string): Promise<string> {
    return (await this.call('readFile', { path })).content
  }

  writeFile(path: string, content: string): Promise<null> {
    return this.call('writeFile', { path, content })
  }

  /** Resolves with the pid once the user agreed and it started; rejects with code 'declined'. */
  runCommand(command: string, options: { cwd?: string } = {}): Promise<{ pid: number }> {
    return this.call('runCommand', { command, ...options })
  }

  setTheme(theme: ThemeName): Promise<null> {
    return this.call('setTheme', { theme })
  }

  setLayout(panels: PanelName[]): Promise<null> {
    return this.call('setLayout', { panels })
  }

  /** Shows a port of the sandbox in the preview panel; it loads once something listens there. */
  openPreview(port: number, path?: string): Promise<null> {
    return this.call('openPreview', path ? { port, path } : { port })
  }

  focus(panel?: PanelName): Promise<null> {
    return this.call('focus', panel ? { panel } : {})
  }

  /** Listens to an event; returns a function that stops listening. */
  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    const set = this.listeners.get(event) ?? new Set()
    this.listeners.set(event, set)
    const wrapped = listener as (data: unknown) => void
    set.add(wrapped)
    return () => set.delete(wrapped)
  }

  /** Listens to the next `event` only. */
  once<E extends EventName>(event: E, listener: Listener<E>): () => void {
    const stop = this.on(event, (data) => {
      stop()
      listener(data)
    })
    return stop
  }

  /** Ends the connection; pending requests fail. */
  close(): void {
    this.port.close()
    for (const { reject } of this.pending.values())
      reject(new EmbedError('failed', 'the connection was closed'))
    this.pending.clear()
  }

  private call<C extends CommandName>(
    method: C,
    params: EmbedCommands[C]['params'],
  ): Promise<EmbedCommands[C]['result']> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.port.postMessage({ kind: 'request', id, method, params })
    })
  }

  private receive(message: ResponseMessage | EventMessage): void {
    if (message.kind === 'event') {
      for (const listener of [...(this.listeners.get(message.event) ?? [])]) listener(message.data)
      return
    }
    const call = this.pending.get(message.id)
    if (!call) return
    this.pending.delete(message.id)
    if (message.ok) call.resolve(message.result)
    else call.reject(new EmbedError(message.error.code, message.error.message))
  }
}
