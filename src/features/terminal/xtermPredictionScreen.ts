import type { PredictionScreen } from './predictiveEcho'

/** The part of xterm's API prediction reads (the browser's Terminal and the headless one alike). */
export interface PredictionTerminal {
  readonly cols: number
  readonly buffer: {
    readonly active: {
      readonly type: 'normal' | 'alternate'
      readonly cursorX: number
      readonly cursorY: number
      readonly baseY: number
      getLine(y: number):
        | {
            translateToString(trimRight?: boolean, startColumn?: number): string
            getCell(x: number): { isBold(): number; isDim(): number } | undefined
          }
        | undefined
    }
  }
  write(data: string, parsed?: () => void): void
}

/**
 * An xterm terminal as prediction sees it. `outputIdle` says whether all output handed to it is
 * parsed; the predictions' own writes are counted here.
 */
export function xtermPredictionScreen(term: PredictionTerminal, outputIdle: () => boolean): PredictionScreen {
  let unparsed = 0
  return {
    write: (data) => {
      unparsed++
      term.write(data, () => unparsed--)
    },
    idle: () => unparsed === 0 && outputIdle(),
    cursor() {
      const buffer = term.buffer.active
      if (buffer.type !== 'normal') return undefined
      const x = buffer.cursorX
      const line = buffer.getLine(buffer.baseY + buffer.cursorY)
      if (!line) return undefined
      const before = x > 0 ? line.getCell(x - 1) : undefined
      return {
        x,
        cols: term.cols,
        rest: line.translateToString(true, x),
        styled: !!before && (before.isBold() !== 0 || before.isDim() !== 0),
      }
    },
  }
}
