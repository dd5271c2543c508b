import { Fragment } from 'react'

/**
 * A message from the stack as the page shows it: what it puts in backticks (a command, a path) as
 * code, the rest as text. The stack writes its messages for terminals and logs too, and marks code
 * the way a terminal user reads it.
 */
export function TextWithCode({ text }: { text: string }) {
  const parts = text.split('`')
  // Odd parts were between backticks; the last of an odd count of backticks stays text.
  const isCode = (i: number) => i % 2 === 1 && i < parts.length - 1
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
    <Fragment key={i}>{isCode(i) ? <code>{part}</code> : part}</Fragment>
  ))
}
