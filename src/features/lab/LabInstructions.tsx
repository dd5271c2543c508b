import type { ComponentProps } from 'react'
import Markdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { labLink } from './labLinks'

interface LabInstructionsProps {
  text: string
  /** The instructions' path in the home folder; relative links start from its folder. */
  path: string
  onOpenFile(path: string): void
}

/** Markdown headings sit under the panel's own: `#` becomes a third-level heading. */
const shifted = (level: 3 | 4 | 5 | 6) => {
  const Heading = `h${level}` as const
  return ({ node: _, ...props }: ComponentProps<'h3'> & { node?: unknown }) => <Heading {...props} />
}

/**
 * A lab's Markdown, rendered safely: raw HTML is dropped (never parsed), links to web pages open
 * in a new tab without access to this one, links to files open them in the editor, anything else
 * (javascript:, data:, a path out of the home folder) is plain text, and images are never loaded
 * (a link to them instead), so the instructions cannot make the page fetch anything.
 */
export function LabInstructions({ text, path, onOpenFile }: LabInstructionsProps) {
  const components: Components = {
    h1: shifted(3),
    h2: shifted(4),
    h3: shifted(5),
    h4: shifted(6),
    h5: shifted(6),
    h6: shifted(6),
    a: ({ href, children }) => {
      const link = labLink(href, path)
      if (link.kind === 'web') {
        return (
          <a href={link.href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        )
      }
      if (link.kind === 'file') {
        return (
          <button
            type="button"
            className="link-button"
            title={`Open ${link.path}`}
            onClick={() => onOpenFile(link.path)}
          >
            {children}
          </button>
        )
      }
      return <span>{children}</span>
    },
    img: ({ src, alt }) => {
      const link = typeof src === 'string' ? labLink(src, path) : { kind: 'none' as const }
      const label = `Image: ${alt || 'untitled'}`
      return link.kind === 'web' ? (
        <a href={link.href} target="_blank" rel="noopener noreferrer">
          [{label}]
        </a>
      ) : (
        <span>[{label}]</span>
      )
    },
  }
  return (
    <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
      {text}
    </Markdown>
  )
}
