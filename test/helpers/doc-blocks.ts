/** What the docs tests read from markdown, and from what its commands print. */

/** The ```sh blocks of `markdown` that run curl, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((block) => block.includes('curl'))
}

/** Splits concatenated JSON documents (curl prints no newline after a body). */
export function jsonDocuments(text: string): any[] {
  const documents: any[] = []
  let depth = 0
  let inString = false
  let start = -1
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') {
      if (depth++ === 0) start = i
    } else if (char === '}' && --depth === 0) documents.push(JSON.parse(text.slice(start, i + 1)))
  }
  return documents
}
