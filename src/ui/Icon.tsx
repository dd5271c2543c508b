import '@vscode/codicons/dist/codicon.css'

/**
 * An icon from VS Code's codicons, bundled with the app (never a CDN): a font that draws
 * wherever the page runs, unlike emoji, which need a font a Debian desktop may lack. Decorative
 * only: the button or row around it carries the accessible name.
 */
export function Icon({ name, className }: { name: string; className?: string }) {
  return <span className={`codicon codicon-${name}${className ? ` ${className}` : ''}`} aria-hidden="true" />
}
