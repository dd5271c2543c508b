/** A file name as the tree shows it: control characters (a newline, a tab) made visible, never interpreted. */
export function displayName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: showing control characters is the point
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '␤' : c === '\t' ? '␉' : '�'))
}
