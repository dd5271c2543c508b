// The graded-sum lab's work for the similar-submission tests (the API's and the browser's): one
// student's own total(), a copy of it with every name changed, and a student who wrote theirs.

/** Ada's total(): a loop with a guard, enough code to leave fingerprints. */
export const adaTotal = `def total(numbers):
    """The sum of a list of numbers."""
    result = 0
    for number in numbers:
        if isinstance(number, bool):
            raise TypeError("not a number")
        result = result + number
    return result
`

/** `code` with every name of Ada's changed, as a student hiding a copy would. */
export const renamed = (code: string) =>
  code.replaceAll('numbers', 'xs').replaceAll('number', 'x').replaceAll('result', 'acc')

/** Cy's own total(), which shares little beyond the lab's starting lines. */
export const cyTotal =
  'def total(numbers):\n    """The sum of a list of numbers."""\n    return sum(numbers)\n'
