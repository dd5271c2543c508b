/** Codicons by file extension; anything else is a plain file. */
const byExtension: Record<string, string> = {
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  png: 'file-media',
  jpg: 'file-media',
  jpeg: 'file-media',
  gif: 'file-media',
  svg: 'file-media',
  webp: 'file-media',
  ico: 'file-media',
  mp3: 'file-media',
  mp4: 'file-media',
  pdf: 'file-pdf',
  zip: 'file-zip',
  gz: 'file-zip',
  tgz: 'file-zip',
  tar: 'file-zip',
  bin: 'file-binary',
  exe: 'file-binary',
  so: 'file-binary',
  o: 'file-binary',
}

const code = new Set([
  'py',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'html',
  'css',
  'scss',
  'sh',
  'bash',
  'c',
  'h',
  'cpp',
  'hpp',
  'rs',
  'go',
  'java',
  'kt',
  'rb',
  'php',
  'lua',
  'sql',
  'yaml',
  'yml',
  'toml',
  'xml',
  'vue',
])

/** The codicon for an entry of the explorer: a folder (open or not), a link, or a file by its kind. */
export function fileIcon(
  name: string,
  kind: { isDir: boolean; expanded: boolean; isSymlink: boolean },
): string {
  if (kind.isDir) return kind.expanded ? 'folder-opened' : 'folder'
  if (kind.isSymlink) return 'file-symlink-file'
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
  return byExtension[extension] ?? (code.has(extension) ? 'file-code' : 'file')
}
