// `npm run bench`: measures and prints a table of medians. Benchmarks are not tests: nothing here fails on a time.
import { codecFigures } from './codec.bench'
import { printTable } from './table'

printTable([...(await codecFigures())])
