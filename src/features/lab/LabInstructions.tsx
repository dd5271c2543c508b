import { type ComponentProps, memo, useLayoutEffect, useMemo, useRef } from 'react'
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
export const LabInstructions = memo(function LabInstructions({
  text,
  path,
  onOpenFile,
}: LabInstructionsProps) {
  // The handler of the moment, read at the click: the components below stay the same across renders.
  const openFile = useRef(onOpenFile)
  useLayoutEffect(() => {
    openFile.current = onOpenFile
  })
  // Made once per instructions file: a new component per render would make React rebuild every
  // heading and link each time the lab's state changes, and a click landing just then is lost.
  const components = useMemo(() => instructionComponents(path, (file) => openFile.current(file)), [path])
  return (
    <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
      {text}
    </Markdown>
  )
})

const headings: Components = {
  h1: shifted(3),
  h2: shifted(4),
  h3: shifted(5),
  h4: shifted(6),
  h5: shifted(6),
  h6: shifted(6),
}

function instructionComponents(path: string, onOpenFile: (path: string) => void): Components {
  return {
    ...headings,
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
}
