/**
 * Reading a language name out of what a person wrote: a data field ("py"), a reply to our
 * question ("It's Python"), or the prose before a diff ("Review this TypeScript PR").
 */
import { LANGUAGES, type Language } from './languages.js'

const ALIASES: Readonly<Record<string, Language>> = {
  ...Object.fromEntries(LANGUAGES.map((language) => [language, language])),
  py: 'python',
  python2: 'python',
  python3: 'python',
  js: 'javascript',
  node: 'javascript',
  nodejs: 'javascript',
  ecmascript: 'javascript',
  ts: 'typescript',
  golang: 'go',
  rb: 'ruby',
  'c#': 'csharp',
  dotnet: 'csharp',
  rs: 'rust',
  kt: 'kotlin',
  'c++': 'cpp',
  cplusplus: 'cpp',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  postgres: 'sql',
  postgresql: 'sql',
  mysql: 'sql',
}

/** A language name given on its own, as in a data field: `"Python"`, `"py"`, `"C#"`. */
export function normalizeLanguage(name: string): Language | undefined {
  return ALIASES[name.trim().toLowerCase()]
}

/** Language names that are also ordinary words ("go ahead", "a swift review", "section c"). */
const ORDINARY_WORDS = new Set(['go', 'c', 'swift'])

/** Words that may surround a bare answer: "it's go", "Go, thanks", "written in C". */
const FILLER = new Set(
  (
    'it s its is in the a an language lang written code this that file files script scripts ' +
    'programming using uses use i m im we re plain pure just sorry oh ok okay yes yeah sure ' +
    'please thanks thank you all of'
  ).split(' '),
)

const WORD = /[a-z0-9#+]+/gi

/**
 * The one language a text names, or undefined when it names none or several. A name that is also
 * an ordinary word counts only when the text is just that answer, or when it is capitalized in
 * mid-sentence ("Review this Go PR").
 */
export function languageFromText(text: string): Language | undefined {
  const named = new Set<Language>()
  const ordinary = new Set<Language>()
  let otherWords = 0
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase()
    const language = ALIASES[word]
    if (language === undefined) {
      if (!FILLER.has(word)) otherWords += 1
    } else if (!ORDINARY_WORDS.has(word) || capitalizedMidSentence(text, match.index, match[0])) {
      named.add(language)
    } else {
      ordinary.add(language)
    }
  }
  if (named.size > 0) return named.size === 1 ? [...named][0] : undefined
  return ordinary.size === 1 && otherWords === 0 ? [...ordinary][0] : undefined
}

function capitalizedMidSentence(text: string, index: number, word: string): boolean {
  if (word[0] !== word[0]?.toUpperCase() || word === word.toLowerCase()) return false
  const before = text.slice(0, index).trimEnd()
  return before !== '' && !/[.!?:]$/.test(before)
}
