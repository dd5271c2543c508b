import { describe, expect, it } from 'vitest'
import { gradingOptions } from './grading.bench'

describe('the grading bench options', () => {
  it('are 30 students within 60 s unless told, and refuse what is not a positive whole number', () => {
    expect(gradingOptions([])).toEqual({ students: 30, withinSeconds: 60 })
    expect(gradingOptions(['grading', '--students', '3', '--within', '5'])).toEqual({
      students: 3,
      withinSeconds: 5,
    })
    expect(() => gradingOptions(['--students', 'many'])).toThrow(
      "--students wants a positive whole number, not 'many'",
    )
    expect(() => gradingOptions(['--within'])).toThrow("--within wants a positive whole number, not ''")
  })
})
