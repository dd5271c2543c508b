/**
 * A file name as it is shown: control characters (a newline in a name, a tab, ESC) become visible
 * symbols so one name stays on one line; everything else, quotes and angle brackets included, is
 * plain text that React escapes.
 */
export function displayName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '⏎' : c === '\t' ? '⇥' : '�'))
}
