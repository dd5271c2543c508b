// The soak's flags, after the group's name: `npm run bench -- soak --minutes 5 --seed 7`.

export interface SoakOptions {
  /** How long the class works, after it is made. */
  minutes: number
  /** Seeds every student's pace, so two runs make the same day. */
  seed: number
  students: number
}

const defaults: SoakOptions = { minutes: 60, seed: 1, students: 10 }

/** Reads `--minutes N`, `--seed N` and `--students N`; anything else is the bench runner's. */
export function soakOptions(argv: string[]): SoakOptions {
  const options = { ...defaults }
  for (const key of ['minutes', 'seed', 'students'] as const) {
    const at = argv.indexOf(`--${key}`)
    if (at < 0) continue
    const text = argv[at + 1]
    const value = Number(text)
    const whole = key !== 'minutes'
    if (text === undefined || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
      throw new Error(`--${key} wants a positive ${whole ? 'whole ' : ''}number, not '${text ?? ''}'`)
    options[key] = value
  }
  return options
}
