/**
 * Which language a changed file is in: from its name, its shebang, or what the user told us.
 * The rules are language-specific, so a wrong guess costs findings; when in doubt we say
 * "unknown" and let the skill ask rather than guess.
 */
import type { DiffFile } from './diff.js'

export const LANGUAGES = [
  'python',
  'javascript',
  'typescript',
  'java',
  'go',
  'ruby',
  'php',
  'csharp',
  'rust',
  'kotlin',
  'swift',
  'scala',
  'c',
  'cpp',
  'shell',
  'sql',
] as const
export type Language = (typeof LANGUAGES)[number]

const BY_EXTENSION: Readonly<Record<string, Language>> = {
  py: 'python',
  pyw: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  java: 'java',
  go: 'go',
  rb: 'ruby',
  rake: 'ruby',
  php: 'php',
  cs: 'csharp',
  rs: 'rust',
  kt: 'kotlin',
  kts: 'kotlin',
  swift: 'swift',
  scala: 'scala',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  sql: 'sql',
}

/**
 * Files that hold no program code. They still get the language-independent rules (a secret in a
 * YAML file is still a secret) but are never a reason to ask which language the diff is in.
 */
const NOT_CODE_EXTENSIONS = new Set(
  (
    'md markdown rst adoc txt json jsonc json5 yaml yml toml ini cfg conf env properties lock ' +
    'csv tsv xml html htm css scss sass less svg png jpg jpeg gif ico webp pdf map snap ' +
    'pem key crt cer p12 pub ' +
    'gitignore gitattributes dockerignore editorconfig npmrc nvmrc prettierrc eslintrc'
  ).split(' '),
)
const NOT_CODE_NAMES = new Set(
  'dockerfile makefile license licence readme changelog authors codeowners notice'.split(' '),
)

export type PathKind = { kind: 'code'; language: Language } | { kind: 'text' } | { kind: 'unknown' }

export function classifyPath(path: string): PathKind {
  const name = (path.split('/').pop() ?? path).toLowerCase()
  const dot = name.lastIndexOf('.')
  const extension = dot >= 0 ? name.slice(dot + 1) : ''
  const language = BY_EXTENSION[extension]
  if (language) return { kind: 'code', language }
  if (NOT_CODE_EXTENSIONS.has(extension) || NOT_CODE_NAMES.has(name)) return { kind: 'text' }
  return { kind: 'unknown' }
}

const SHEBANG =
  /^#!\S*(?:\/env(?:\s+-\S+)*)?\s*\/?(?:\S*\/)?(python[\d.]*|node|ruby|php|bash|sh|zsh|ts-node|tsx)\b/
const SHEBANG_LANGUAGE: Readonly<Record<string, Language>> = {
  node: 'javascript',
  ruby: 'ruby',
  php: 'php',
  bash: 'shell',
  sh: 'shell',
  zsh: 'shell',
  'ts-node': 'typescript',
  tsx: 'typescript',
}

/** An extensionless script usually names its interpreter on line 1. */
function shebangLanguage(file: DiffFile): Language | undefined {
  const first = file.added[0]
  if (first?.line !== 1) return undefined
  const interpreter = SHEBANG.exec(first.text)?.[1]
  if (interpreter === undefined) return undefined
  return interpreter.startsWith('python') ? 'python' : SHEBANG_LANGUAGE[interpreter]
}

/**
 * The language whose rules apply to a file: its own (extension, then shebang) wins over the
 * language the user named, which only fills in files we cannot place — a PR said to be "Python"
 * may still touch a `.js` file, and Python rules on it would be wrong.
 */
export function fileLanguage(file: DiffFile, fallback?: Language): Language | undefined {
  const kind = classifyPath(file.path)
  if (kind.kind === 'code') return kind.language
  if (kind.kind === 'text') return undefined
  return shebangLanguage(file) ?? fallback
}

/** True when no file with code in it can be placed, so the review would be language-blind. */
export function languageNeeded(files: readonly DiffFile[], fallback?: Language): boolean {
  if (fallback) return false
  const reviewable = files.filter((file) => file.status !== 'deleted' && file.added.length > 0)
  const placed = reviewable.some((file) => fileLanguage(file) !== undefined)
  const unknown = reviewable.some(
    (file) => classifyPath(file.path).kind === 'unknown' && shebangLanguage(file) === undefined,
  )
  return unknown && !placed
}
