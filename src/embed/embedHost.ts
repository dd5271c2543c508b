import {
  type CommandName,
  type EmbedCommands,
  type EmbedEvents,
  type ErrorCode,
  type EventName,
  embedProtocol,
  type HelloMessage,
  type ResponseMessage,
} from '@sandbox-ide/embed/protocol'
import { DisposableStore, toDisposable } from '../common/lifecycle'
import { connectSchema, firstIssue, paramsSchemas, requestSchema } from './requestSchemas'

/** What the parent handed over in the handshake. */
export interface EmbedConnection {
  runtimeUrl: string
  accessToken: string | null
  /** The parent's origin, checked against the allowlist. */
  origin: string
}

/** A failure with a code the parent can act on. */
export class CommandError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export type CommandHandlers = {
  [C in CommandName]: (params: EmbedCommands[C]['params']) => Promise<EmbedCommands[C]['result']>
}

const helloEveryMs = 500

/**
 * The IDE's side of the embed protocol (protocol.ts). `waitForParent` says hello until a parent
 * whose origin is on the allowlist connects; messages from any other window or origin are
 * ignored (and reported through `onIgnored`). `serve` then answers requests on the port.
 */
export class EmbedHost {
  private port: MessagePort | undefined
  private readonly disposables = new DisposableStore()

  constructor(
    private readonly allowedOrigins: ReadonlySet<string>,
    private readonly onIgnored: (reason: string) => void = () => {},
  ) {}

  waitForParent(): Promise<EmbedConnection> {
    return new Promise((resolve) => {
      const hello: HelloMessage = { type: 'sandbox-ide:hello', protocol: embedProtocol }
      // No secret in a hello, so any parent may hear it; the answer is what gets checked.
      const sayHello = () => window.parent.postMessage(hello, '*')
      const timer = setInterval(sayHello, helloEveryMs)
      const onMessage = (event: MessageEvent) => {
        if (event.source !== window.parent || event.data?.type !== 'sandbox-ide:connect') return
        if (!this.allowedOrigins.has(event.origin)) {
          this.onIgnored(`a connect from ${event.origin}, which is not on the embed allowlist`)
          return
        }
        const parsed = connectSchema.safeParse(event.data)
        const port = event.ports[0]
        if (!parsed.success || !port) {
          this.onIgnored(
            `a malformed connect from ${event.origin}: ${parsed.success ? 'no MessagePort' : firstIssue(parsed.error)}`,
          )
          return
        }
        saying.dispose()
        this.port = port
        this.disposables.add(toDisposable(() => port.close()))
        resolve({
          runtimeUrl: parsed.data.runtimeUrl,
          accessToken: parsed.data.accessToken,
          origin: event.origin,
        })
      }
      window.addEventListener('message', onMessage)
      // Until a parent connects, or the host goes first.
      const saying = this.disposables.add(
        toDisposable(() => {
          clearInterval(timer)
          window.removeEventListener('message', onMessage)
        }),
      )
      sayHello()
    })
  }

  /** Answers the parent's requests with `handlers`, one response per request. */
  serve(handlers: CommandHandlers): void {
    const port = this.port
    if (!port) throw new Error('not connected')
    port.onmessage = (event: MessageEvent) => void respond(port, handlers, event.data)
  }

  emit<E extends EventName>(event: E, data: EmbedEvents[E]): void {
    this.port?.postMessage({ kind: 'event', event, data })
  }

  dispose(): void {
    this.disposables.dispose()
  }
}

/** Checks one request, runs its handler, and posts the response (errors included). */
export async function respond(port: MessagePort, handlers: CommandHandlers, message: unknown): Promise<void> {
  const request = requestSchema.safeParse(message)
  if (!request.success) return // not a request: there is no id to answer
  const { id, method } = request.data
  const reply = (response: ResponseMessage) => port.postMessage(response)
  const fail = (code: ErrorCode, text: string) =>
    reply({ kind: 'response', id, ok: false, error: { code, message: text } })
  if (!Object.hasOwn(paramsSchemas, method)) return fail('unknown-method', `no such command: ${method}`)
  const name = method as CommandName
  const params = paramsSchemas[name].safeParse(request.data.params ?? {})
  if (!params.success) return fail('invalid', `${method}: ${firstIssue(params.error)}`)
  try {
    const handler = handlers[name] as (p: unknown) => Promise<unknown>
    reply({ kind: 'response', id, ok: true, result: (await handler(params.data)) ?? null })
  } catch (err) {
    if (err instanceof CommandError) fail(err.code, err.message)
    else fail('failed', err instanceof Error ? err.message : String(err))
  }
}
