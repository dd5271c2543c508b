// The gradebook's CSV: RFC 4180's quoting, and no cell a spreadsheet would run as a formula.
import { describe, expect, it } from 'vitest'
import { csvField, type Gradebook, gradebookCsv, neutralised } from './gradebook'

describe('the gradebook as CSV', () => {
  it('puts a quote before what a spreadsheet takes for a formula, and only that', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])
      expect(neutralised(text), text).toBe(`'${text}`)
    for (const text of ['ada', "O'Neil", 'a=b', ' =1', '']) expect(neutralised(text), text).toBe(text)
  })

  it('quotes a field with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('cr\r')).toBe('"cr\r"')
  })

  it('writes a header, a CRLF-ended line per row, and empty cells for a student without a grade', () => {
    const book: Gradebook = {
      className: 'monday',
      policy: 'best',
      late: { kind: 'late', penaltyPercentPerDay: 10 },
      labs: ['lab'],
      rows: [
        {
          student: '=cmd|" /C calc"!A0',
          lab: 'lab',
          counted: {
            sandboxId: 's',
            submissionId: 'x',
            submittedAt: '2026-01-01T10:00:00.000Z',
            score: 2.5,
            maxScore: 4,
          },
          attempts: 1,
          lastSubmittedAt: '2026-01-01T10:00:00.000Z',
          late: false,
          submissions: [],
        },
        { student: 'ben\nnext', lab: 'lab', attempts: 1, late: false, submissions: [] },
        {
          student: 'cy',
          lab: 'lab',
          // Two days late at 10% a day: 4 counts for 3.2; the raw 4 is not the CSV's.
          counted: {
            sandboxId: 's',
            submissionId: 'y',
            submittedAt: '2026-01-03T10:00:00.000Z',
            score: 4,
            maxScore: 4,
            daysLate: 2,
            countedScore: 3.2,
          },
          attempts: 1,
          late: true,
          submissions: [],
        },
      ],
    }
    expect(gradebookCsv(book)).toBe(
      'student,lab,score,max,submitted_at,late\r\n' +
        `"'=cmd|"" /C calc""!A0",lab,2.5,4,2026-01-01T10:00:00.000Z,false\r\n` +
        '"ben\nnext",lab,,,,\r\n' +
        'cy,lab,3.2,4,2026-01-03T10:00:00.000Z,true\r\n',
    )
  })
})
