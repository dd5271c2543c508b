/** One token of code as fingerprinting sees it: its class or text, and the line it starts on (1-based). */
export interface CodeToken {
  text: string
  line: number
}

/**
 * Words that shape code in Python, JavaScript/TypeScript, C, C++ and Java: kept as themselves,
 * while every other name becomes one class, so renaming variables changes nothing but a loop
 * turned into recursion does.
 */
const keywords = new Set(
  (
    'and as assert async await break case catch class const continue def default del do elif else ' +
    'enum except export extends false final finally for from function global goto if import in ' +
    'instanceof interface is lambda let new nonlocal none not null or pass private protected public ' +
    'raise return static struct super switch this throw true try typeof union var void while with ' +
    'yield int long short char float double unsigned signed sizeof bool boolean string'
  ).split(' '),
)

const letter = /\p{L}/u
const letterOrDigit = /[\p{L}\p{N}]/u
/** ASCII by its code (the common case, fast), anything else by Unicode's classes. */
const isDigit = (c: number) => c >= 48 && c <= 57
const isIdentifierStart = (c: number, ch: string) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || (c > 127 && letter.test(ch))
const isIdentifierPart = (c: number, ch: string) =>
  isIdentifierStart(c, ch) || isDigit(c) || (c > 127 && letterOrDigit.test(ch))

/**
 * Splits source code into tokens, any language of the C, JavaScript or Python families alike:
 * whitespace and comments (`#`, `//`, `/* … *\/`) are dropped, every string or character literal
 * is `S` (Python's triple-quoted ones, docstrings, too), every number `N`, every name that is not
 * a keyword `I`, and each other character is itself. Keywords are compared in lower case.
 * `maxTokens` bounds the work on a huge file.
 */
export function codeTokens(text: string, maxTokens = Number.POSITIVE_INFINITY): CodeToken[] {
  const tokens: CodeToken[] = []
  let line = 1
  let i = 0
  const n = text.length
  /** Moves past text[from, to), counting its line breaks. */
  const skip = (to: number) => {
    for (let j = i; j < to; j++) if (text.charCodeAt(j) === 10) line++
    i = to
  }
  while (i < n && tokens.length < maxTokens) {
    const c = text[i] as string
    const code = text.charCodeAt(i)
    if (c === '\n') {
      line++
      i++
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i)
      i = end === -1 ? n : end
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      skip(end === -1 ? n : end + 2)
    } else if (c === '"' || c === "'" || c === '`') {
      const start = line
      const triple = (c === '"' || c === "'") && text[i + 1] === c && text[i + 2] === c
      skip(stringEnd(text, i, c, triple))
      tokens.push({ text: 'S', line: start })
    } else if (isDigit(code) || (c === '.' && isDigit(text.charCodeAt(i + 1)))) {
      let j = i + 1
      // Digits, letters (hex, exponents, suffixes), dots and underscores: 0x1F, 1e-3, 10_000, 2.5f.
      while (j < n && (isIdentifierPart(text.charCodeAt(j), text[j] as string) || text[j] === '.')) {
        j += (text[j] === 'e' || text[j] === 'E') && (text[j + 1] === '+' || text[j + 1] === '-') ? 2 : 1
      }
      tokens.push({ text: 'N', line })
      i = j
    } else if (isIdentifierStart(code, c)) {
      let j = i + 1
      while (j < n && isIdentifierPart(text.charCodeAt(j), text[j] as string)) j++
      const word = text.slice(i, j).toLowerCase()
      tokens.push({ text: keywords.has(word) ? word : 'I', line })
      i = j
    } else {
      tokens.push({ text: c, line })
      i++
    }
  }
  return tokens
}

/** Where a string literal opening at `at` ends (past its closing quote; the text's end when unclosed). */
function stringEnd(text: string, at: number, quote: string, triple: boolean): number {
  const n = text.length
  if (triple) {
    const close = quote.repeat(3)
    for (let j = at + 3; j < n; j++) {
      if (text[j] === '\\') j++
      else if (text.startsWith(close, j)) return j + 3
    }
    return n
  }
  for (let j = at + 1; j < n; j++) {
    const c = text[j]
    if (c === '\\') j++
    else if (c === quote) return j + 1
    // A plain string ends with its line: an unclosed quote (a C char like 'a' is closed) takes no more.
    else if (c === '\n' && quote !== '`') return j
  }
  return n
}
