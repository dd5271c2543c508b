// `npm run bench`: measures and prints a table of medians. Benchmarks are not tests: nothing here fails on a time.
// `npm run bench -- runtime` (or codec, platform) runs one group.
import { codecFigures } from './codec.bench'
import { platformFigures } from './platform.bench'
import { runtimeFigures } from './runtime.bench'
import { type Figure, printTable } from './table'

const groups: Record<string, () => Promise<Figure[]>> = {
  codec: codecFigures,
  runtime: runtimeFigures,
  platform: platformFigures,
}
const chosen = process.argv.slice(2)
const figures: Figure[] = []
for (const [name, measure] of Object.entries(groups)) {
  if (chosen.length === 0 || chosen.includes(name)) figures.push(...(await measure()))
}
printTable(figures)
