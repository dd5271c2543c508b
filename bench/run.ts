// `npm run bench`: measures and prints a table of medians. Benchmarks are not tests: nothing here fails on a time.
// `npm run bench -- runtime` (or codec, platform, class, grading, neighbour, terminal, explorer, ports, editor, embed, fuzz, lsp, search, together) runs one group.
// `npm run bench -- soak` (an hour by default, `--minutes N`) runs only when named.
import { classFigures } from './class.bench'
import { classLoadFigures } from './classLoad.bench'
import { codecFigures } from './codec.bench'
import { editorFigures } from './editor.bench'
import { embedFigures } from './embed.bench'
import { explorerFigures } from './explorer.bench'
import { fuzzFigures } from './fuzz.bench'
import { gradingFigures } from './grading.bench'
import { lspFigures } from './lsp.bench'
import { neighbourFigures } from './neighbour.bench'
import { platformFigures } from './platform.bench'
import { portsFigures } from './ports.bench'
import { runtimeFigures } from './runtime.bench'
import { searchFigures } from './search.bench'
import { soakFigures } from './soak/soak.bench'
import { type Figure, printTable } from './table'
import { terminalFigures } from './terminal/terminal.bench'
import { togetherFigures } from './together.bench'

const groups: Record<string, () => Promise<Figure[]>> = {
  codec: codecFigures,
  runtime: runtimeFigures,
  platform: platformFigures,
  // Making a class, then a class at work (BENCH_CLASS_MINUTES each for 30 and 50 students).
  class: async () => [...(await classFigures()), ...(await classLoadFigures())],
  // Thirty students submit within a minute: all graded, and the class's echo meanwhile.
  grading: gradingFigures,
  neighbour: neighbourFigures,
  terminal: terminalFigures,
  explorer: explorerFigures,
  ports: portsFigures,
  editor: editorFigures,
  embed: embedFigures,
  fuzz: fuzzFigures,
  lsp: lspFigures,
  search: searchFigures,
  // Co-editing: a key to its glyph in another browser, near and far; three editing at once.
  together: togetherFigures,
  // A class of 10 through a long day: memory growth, errors, lost keys.
  soak: soakFigures,
}
/** Groups too long for a run of everything: an hour's soak would hide the others' figures behind it. */
const onlyWhenNamed = new Set(['soak'])
// Flags and their values (`--minutes 5`) belong to the groups that read them, not to the choice.
const chosen = process.argv
  .slice(2)
  .filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'))
let failed = 0
// One table per group as it finishes, so a group that fails does not take the others' figures with it.
for (const [name, measure] of Object.entries(groups)) {
  if (chosen.length > 0 ? !chosen.includes(name) : onlyWhenNamed.has(name)) continue
  try {
    printTable(await measure())
  } catch (err) {
    failed++
    console.error(`bench ${name} failed: ${err instanceof Error ? err.message : String(err)}`)
  }
  console.log()
}
process.exitCode = failed > 0 ? 1 : 0
