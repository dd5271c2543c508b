// `npm run bench`: measures and prints a table of medians. Benchmarks are not tests: nothing here fails on a time.
import { codecFigures } from './codec.bench'
import { runtimeFigures } from './runtime.bench'
import { printTable } from './table'

printTable([...(await codecFigures()), ...(await runtimeFigures())])
