import { join } from 'node:path'
import { type ClassDeadline, dueOf, noDeadline } from '../../../src/contract/deadlines'
import { readJsonRecordOrSetAside, writeRecordFile } from '../recordFile'

/** What `<data>/class-deadlines.json` holds. */
interface DeadlineRecord {
  /** By class name (the stack's own classes: grades are kept here only). */
  classes: Record<string, ClassDeadline>
  /** The deadline at which exam mode last paused a sandbox, by sandbox id: it pauses it once for that deadline. */
  examClosed: Record<string, string>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The stack's classes' deadlines, policies and extensions, kept in `<data>/class-deadlines.json`
 * (written durably, as every record of the stack: see recordFile.ts), so a restart keeps them.
 * A class is its sandboxes' metadata; this holds only what the teacher set for it.
 */
export class ClassDeadlines {
  private record: DeadlineRecord | undefined

  constructor(
    private readonly dataDir: string,
    /** Where a damaged file is reported. */
    private readonly log: (line: string) => void,
  ) {}

  private get path(): string {
    return join(this.dataDir, 'class-deadlines.json')
  }

  private all(): DeadlineRecord {
    this.record ??= readJsonRecordOrSetAside(
      this.path,
      'class deadlines',
      (value) =>
        isRecord(value) && isRecord(value.classes) && isRecord(value.examClosed)
          ? (value as unknown as DeadlineRecord)
          : undefined,
      this.log,
    ) ?? { classes: {}, examClosed: {} }
    return this.record
  }

  private save(): void {
    writeRecordFile(this.path, `${JSON.stringify(this.all(), null, 2)}\n`)
  }

  /** The class's deadline and policy; a class never set has none, and counts the best. */
  get(className: string): ClassDeadline {
    return this.all().classes[className] ?? noDeadline
  }

  /** Every class that has something set. */
  classes(): [string, ClassDeadline][] {
    return Object.entries(this.all().classes)
  }

  /** Sets the class's deadline and policies; its students' extensions stay. */
  set(className: string, settings: Omit<ClassDeadline, 'extensions'>): ClassDeadline {
    const { deadline, late, counts, examMode } = settings
    const next: ClassDeadline = {
      ...(deadline ? { deadline } : {}),
      late,
      counts,
      examMode,
      extensions: this.get(className).extensions,
    }
    this.all().classes[className] = next
    this.save()
    return next
  }

  /** Gives one student a deadline of their own, or takes it back (`until` null). */
  extend(className: string, student: string, until: string | null): ClassDeadline {
    const { [student]: _old, ...others } = this.get(className).extensions
    const next: ClassDeadline = {
      ...this.get(className),
      extensions: until === null ? others : { ...others, [student]: until },
    }
    this.all().classes[className] = next
    this.save()
    return next
  }

  /** A student's deadline (their extension, else the class's). */
  dueOf(className: string | undefined, student: string): string | undefined {
    return className === undefined ? undefined : dueOf(this.get(className), student)
  }

  /** The deadline at which exam mode last paused this sandbox. */
  examClosedAt(sandboxId: string): string | undefined {
    return this.all().examClosed[sandboxId]
  }

  markExamClosed(sandboxId: string, due: string): void {
    this.all().examClosed[sandboxId] = due
    this.save()
  }
}
