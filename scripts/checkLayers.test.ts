import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkImport, checkTree, importsOf } from './checkLayers'

describe('the imports of a file', () => {
  it('are found in every form: values, types, re-exports, side effects and import()', () => {
    const source = [
      "import { a } from './a'",
      "import type { B } from '../b'",
      'import {',
      '  c,',
      '  type D,',
      "} from '@scope/pkg/sub'",
      "export { e } from './e'",
      "export * from './f'",
      "import './g.css'",
      "const h = lazy(() => import('./h'))",
    ].join('\n')
    expect(importsOf(source)).toEqual([
      { specifier: './a', line: 1 },
      { specifier: '../b', line: 2 },
      { specifier: '@scope/pkg/sub', line: 6 },
      { specifier: './e', line: 7 },
      { specifier: './f', line: 8 },
      { specifier: './g.css', line: 9 },
      { specifier: './h', line: 10 },
    ])
  })

  it('leave out what comments and strings only mention', () => {
    const source = [
      "// import { x } from '../api/x'",
      "/* import { y } from '../api/y' */",
      'const text = "import { z } from \'../api/z\'"',
      "import { real } from './real'",
    ].join('\n')
    expect(importsOf(source).map((i) => i.specifier)).toEqual(['./real'])
  })
})

describe('the layer rule', () => {
  it('keeps Connect and protobuf below the features, and says why', () => {
    const message = checkImport('src/features/files/probe.ts', '@connectrpc/connect')
    expect(message).toMatch(
      /^@connectrpc\/connect may be imported only in src\/gen\/, src\/api\/, src\/sandbox\//,
    )
    expect(message).toContain('the domain layer')
    expect(checkImport('src/workbench/probe.ts', '@bufbuild/protobuf/wire')).toMatch(
      /^@bufbuild\/protobuf may/,
    )
    expect(checkImport('src/sandbox/probe.ts', '@connectrpc/connect')).toBeUndefined()
    expect(checkImport('server/runtime/probe.ts', '@connectrpc/connect-node')).toBeUndefined()
  })

  it('lets a package of one feature in that feature alone', () => {
    expect(checkImport('src/features/terminal/probe.ts', '@xterm/xterm')).toBeUndefined()
    expect(checkImport('src/features/editor/probe.ts', '@xterm/xterm')).toMatch(
      /only in src\/features\/terminal\//,
    )
    expect(checkImport('src/sandbox/probe.ts', 'react')).toMatch(/plain TypeScript classes/)
  })

  it('lets layers depend one way only', () => {
    expect(checkImport('src/sandbox/probe.ts', '../features/files/fileTree')).toMatch(
      /^src\/sandbox\/ may not import src\/features\/ \(it may import .*\): src\/sandbox\/ is the domain layer/,
    )
    expect(checkImport('src/features/files/probe.ts', '../../api/files')).toMatch(/may not import src\/api\//)
    expect(checkImport('src/features/files/probe.ts', '../../sandbox/sandboxFiles')).toBeUndefined()
    expect(checkImport('src/app/probe.ts', '../embed/EmbedPage')).toBeUndefined()
  })

  it('keeps features apart from each other', () => {
    expect(checkImport('src/features/files/probe.ts', '../editor/EditorManager')).toBe(
      'src/features/files/ imports src/features/editor/: a feature never imports another: they meet in stores and in the workbench',
    )
    expect(checkImport('src/features/files/probe.ts', './fileTree')).toBeUndefined()
  })

  it('keeps a runtime alone and the stack off the page’s code', () => {
    expect(checkImport('server/runtime/probe.ts', '../platform/sandboxManager')).toMatch(
      /runs alone, as envd does/,
    )
    expect(checkImport('server/platform/probe.ts', '../../src/api/files')).toMatch(
      /may not import src\/api\//,
    )
    expect(checkImport('server/platform/probe.ts', '../../src/contract/idePaths')).toBeUndefined()
    expect(checkImport('server/platform/probe.ts', '../nodeFlags')).toBeUndefined()
  })

  it('asks for a new folder to be placed in the table', () => {
    expect(checkImport('src/app/probe.ts', '../newthing/x')).toBe(
      'src/newthing/x is in no layer: add its folder to scripts/layers.ts',
    )
  })

  it('holds for the whole tree', () => {
    expect(checkTree(join(import.meta.dirname, '..'))).toEqual([])
  })
})
