import { Component, type ErrorInfo, type ReactNode } from 'react'

/** A part's code could not be fetched (the stack or the network was away when it was first wanted). */
export class PartLoadError extends Error {
  constructor(part: string, cause: unknown) {
    super(`${part} could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'PartLoadError'
  }
}

interface Props {
  /** What the user calls this part ("Source control", "The IDE"). */
  label: string
  children: ReactNode
  /** Forgets the failure so the part can be fetched again; without it only Reload is offered. */
  onRetry?: () => void
}

interface State {
  error?: Error
}

/**
 * Keeps one part's failure inside that part: without a boundary React unmounts the whole page
 * when any component throws while rendering, so a side view whose code could not be fetched
 * (the stack restarting, a dropped network) would leave a blank tab. Reload is always safe:
 * hot exit keeps unsaved edits and terminals reattach.
 */
export class PartBoundary extends Component<Props, State> {
  override state: State = {}

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`${this.props.label} failed`, error, info.componentStack)
  }

  private readonly retry = () => {
    this.props.onRetry?.()
    this.setState({ error: undefined })
  }

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    const loading = error instanceof PartLoadError
    return (
      <div className="part-failed" role="alert">
        <span>
          {this.props.label} {loading ? 'could not be loaded' : 'stopped working'}
          {loading && !navigator.onLine ? ' (this device is offline)' : ''}.
        </span>
        {loading && this.props.onRetry && (
          <button type="button" onClick={this.retry}>
            Try again
          </button>
        )}
        <button type="button" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    )
  }
}
