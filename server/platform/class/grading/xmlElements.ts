// A small, strict reader of the XML a test runner writes (JUnit reports): elements, attributes,
// text, CDATA, comments, processing instructions and the five named entities plus numeric ones.
// Written here rather than taken from npm: a report comes from a student's submission, so what
// matters is what it refuses (a DOCTYPE and so any entity of its own, which is how XML bombs and
// external entities start; unclosed or mismatched tags; too deep a nesting; too many elements),
// and that is short enough to read whole here, where a general parser's options would have to be
// audited for each of them.

/** One element: its name, attributes, child elements and its own text (CDATA included). */
export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

/** XML this reader does not accept, with where and why. */
export class XmlError extends Error {}

export interface XmlLimits {
  /** Deepest nesting of elements. */
  maxDepth: number
  /** Most elements in all. */
  maxElements: number
}

const defaults: XmlLimits = { maxDepth: 64, maxElements: 100_000 }
const namePattern = /[A-Za-z_:][-A-Za-z0-9_:.]*/y
const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** Reads a document with one root element; throws an XmlError for anything else. */
export function parseXml(text: string, limits: XmlLimits = defaults): XmlElement {
  let at = text.startsWith('\uFEFF') ? 1 : 0
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  let count = 0

  const fail = (why: string): never => {
    const line = text.slice(0, at).split('\n').length
    throw new XmlError(`not well-formed XML at line ${line}: ${why}`)
  }
  const skipUntil = (end: string, what: string) => {
    const found = text.indexOf(end, at)
    if (found < 0) fail(`${what} never ends`)
    const inside = text.slice(at, found)
    at = found + end.length
    return inside
  }
  const readName = () => {
    namePattern.lastIndex = at
    const match = namePattern.exec(text)
    if (!match) return fail('a name was expected')
    at += match[0].length
    return match[0]
  }
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at] as string)) at++
  }
  const decode = (raw: string) =>
    raw.replace(/&([^;&<]*);|&/g, (whole, entity: string | undefined) => {
      if (entity === undefined) return fail('a bare & (write &amp;)')
      if (entity in named) return named[entity] as string
      const code = /^#x[0-9a-fA-F]{1,6}$/.test(entity)
        ? Number.parseInt(entity.slice(2), 16)
        : /^#[0-9]{1,7}$/.test(entity)
          ? Number.parseInt(entity.slice(1), 10)
          : undefined
      if (code === undefined || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 0)
        return fail(`unknown entity ${whole}`)
      return String.fromCodePoint(code)
    })
  const addText = (value: string) => {
    const open = stack[stack.length - 1]
    if (open) open.text += value
    else if (value.trim() !== '') fail('text outside the root element')
  }

  while (at < text.length) {
    const lt = text.indexOf('<', at)
    if (lt < 0) {
      addText(decode(text.slice(at)))
      break
    }
    if (lt > at) addText(decode(text.slice(at, lt)))
    at = lt
    if (text.startsWith('<!--', at)) {
      at += 4
      skipUntil('-->', 'a comment')
    } else if (text.startsWith('<![CDATA[', at)) {
      at += 9
      const cdata = skipUntil(']]>', 'a CDATA section')
      addText(cdata)
    } else if (text.startsWith('<?', at)) {
      at += 2
      skipUntil('?>', 'a processing instruction')
    } else if (text.startsWith('<!', at)) {
      fail('a DOCTYPE or other declaration, which a report does not need and this reader refuses')
    } else if (text.startsWith('</', at)) {
      at += 2
      const name = readName()
      skipSpace()
      if (text[at] !== '>') fail(`</${name} is not closed by >`)
      at++
      const open = stack.pop()
      if (!open) fail(`</${name}> closes nothing`)
      else if (open.name !== name) fail(`</${name}> closes <${open.name}>`)
    } else {
      at++
      const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' }
      if (++count > limits.maxElements) fail(`more than ${limits.maxElements} elements`)
      const parent = stack[stack.length - 1]
      if (parent) parent.children.push(element)
      else if (root) fail('a second root element')
      else root = element
      for (;;) {
        const before = at
        skipSpace()
        if (text.startsWith('/>', at)) {
          at += 2
          break
        }
        if (text[at] === '>') {
          at++
          stack.push(element)
          if (stack.length > limits.maxDepth) fail(`elements nested deeper than ${limits.maxDepth}`)
          break
        }
        if (at === before) fail(`<${element.name}> needs a space before an attribute, or > to end`)
        const name = readName()
        skipSpace()
        if (text[at] !== '=') fail(`attribute ${name} has no value`)
        at++
        skipSpace()
        const quote = text[at]
        if (quote !== '"' && quote !== "'") return fail(`attribute ${name}'s value is not quoted`)
        at++
        const raw = skipUntil(quote, `attribute ${name}'s value`)
        if (raw.includes('<')) fail(`attribute ${name}'s value holds a <`)
        if (name in element.attributes) fail(`attribute ${name} is given twice`)
        element.attributes[name] = decode(raw)
      }
    }
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1]?.name}> is never closed`)
  if (!root) return fail('no root element')
  return root
}
