/**
 * The Code Review Agent's default skill: reviews a unified diff with a table of line rules (no
 * LLM) and returns findings with severities. Multi-turn: it asks for the diff when none was sent,
 * and for the language when no changed file reveals it.
 */
import { dataPart, textPart } from '../../domain/parts.js'
import { defineSkill, type JsonSchema, type SkillContext, type SkillOutcome } from '../skill.js'
import { DIFF_MEDIA_TYPES, readRequest } from './input.js'
import { fileLanguage, LANGUAGES, languageNeeded, type Language } from './languages.js'
import { headerlessNote, reportText, summaryLine, uncountedNote } from './report.js'
import { reviewFile, sortFindings, type Finding } from './review.js'
import { CATEGORIES } from './rule.js'

export const ASK_FOR_DIFF =
  'Please send the unified diff to review (as text, as the "diff" field of a data part, or as a .diff or .patch file).'

export function askForLanguage(unknownLanguage?: string): string {
  const question =
    'Which programming language is this diff in? ' +
    `Please reply with one of: ${LANGUAGES.join(', ')}.`
  return unknownLanguage === undefined
    ? question
    : `${JSON.stringify(unknownLanguage)} is not a language I have rules for. ${question}`
}

const inputSchema: JsonSchema = {
  type: 'object',
  properties: {
    diff: {
      type: 'string',
      description:
        'The unified diff to review (git diff, diff -u or svn diff). Not required: the diff may ' +
        'be sent as a text part instead. Here it may also be only the changed lines, each ' +
        'starting with + or -: they are read as one file, numbered from line 1.',
    },
    language: {
      type: 'string',
      description:
        'Language of the changed code, for files whose extension does not tell. Inferred per ' +
        'file from its extension when absent.',
      examples: [...LANGUAGES],
    },
    focus: {
      type: 'array',
      items: { type: 'string', enum: [...CATEGORIES] },
      uniqueItems: true,
      description: 'Which kinds of issues to look for; defaults to all.',
      default: [...CATEGORIES],
    },
  },
  additionalProperties: true,
}

async function execute(ctx: SkillContext): Promise<SkillOutcome | void> {
  const read = readRequest(ctx.message, ctx.history)
  if (!read.ok) return ctx.reject(read.reason)
  const { files, headerless, focus, language, unknownLanguage } = read.request
  if (!files) return ctx.requestInput(ASK_FOR_DIFF)
  if (languageNeeded(files, language)) return ctx.requestInput(askForLanguage(unknownLanguage))

  const findings: Finding[] = []
  const languages: Record<string, Language | null> = {}
  for (const [index, file] of files.entries()) {
    // The engine has already canceled the task: stop quietly, nothing is delivered.
    if (ctx.signal.aborted) return
    await ctx.progress(`Analyzing file ${index + 1}/${files.length}: ${file.path}…`)
    const fileLang = fileLanguage(file, language)
    languages[file.path] = fileLang ?? null
    findings.push(...reviewFile(file, fileLang, focus))
  }
  if (ctx.signal.aborted) return

  const sorted = sortFindings(findings)
  const summary =
    summaryLine(sorted, files) + uncountedNote(files) + (headerless ? headerlessNote(sorted) : '')
  ctx.log.debug({ files: files.length, findings: sorted.length }, 'review finished')
  await ctx.emitArtifact({
    name: 'review-findings',
    description: 'Code review findings',
    parts: [
      textPart(reportText(summary, sorted)),
      dataPart({
        findings: sorted,
        summary,
        files: files.map((file) => file.path),
        language: language ?? null,
        languages,
        focus,
      }),
    ],
  })
  return ctx.complete(summary)
}

export const reviewPrSkill = defineSkill({
  id: 'review-pr',
  name: 'Review Pull Request',
  description: 'Analyzes a PR diff and returns structured findings with severity ratings',
  tags: ['code-review', 'security', 'quality'],
  examples: [
    'Review this Python PR for security vulnerabilities',
    'Check this diff for style issues per PEP 8',
  ],
  inputModes: ['text/plain', 'application/json', ...DIFF_MEDIA_TYPES],
  outputModes: ['text/plain', 'application/json'],
  inputSchema,
  execute,
})
