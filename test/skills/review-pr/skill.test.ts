import { describe, expect, it } from 'vitest'
import { dataPart, textPart } from '../../../src/domain/parts.js'
import { ASK_FOR_DIFF, askForLanguage, reviewPrSkill } from '../../../src/skills/review-pr/index.js'
import { agentReply, createContext, userMessage } from './context.js'
import { lines, MISCOUNTED_HUNK, newFile } from './fixtures.js'

const PY_DIFF = lines(
  'diff --git a/app/db.py b/app/db.py',
  'index 1a2b3c4..5d6e7f8 100644',
  '--- a/app/db.py',
  '+++ b/app/db.py',
  '@@ -8,4 +8,5 @@ def get_conn():',
  ' ',
  ' def find_user(conn, name):',
  '     with conn.cursor() as cur:',
  '-        cur.execute("SELECT id FROM users WHERE name = %s", (name,))',
  `+        cur.execute(f"SELECT id FROM users WHERE name = '{name}'")`,
  '+        return cur.fetchone()',
)

const TS_DIFF = lines(
  'diff --git a/web/api.ts b/web/api.ts',
  'index 9f8e7d6..c5b4a39 100644',
  '--- a/web/api.ts',
  '+++ b/web/api.ts',
  '@@ -20,3 +20,5 @@ export async function fetchUser(id: string) {',
  '   const res = await fetch(`${BASE}/users/${id}`)',
  "+  console.log('fetched', id)",
  '+  const agent = new https.Agent({ rejectUnauthorized: false })',
  '   return res.json()',
  ' }',
)

const TWO_FILES = `${PY_DIFF}\n${TS_DIFF}\n`

/** An extensionless script: nothing tells its language. */
const SCRIPT_DIFF = newFile('bin/cleanup', ['import os', 'os.system(f"rm -rf {target}")'])

const run = async (...history: Parameters<typeof createContext>[0]) => {
  const test = createContext(history)
  const outcome = await reviewPrSkill.execute(test.ctx)
  return { ...test, outcome }
}

describe('reviewPrSkill card', () => {
  it('describes the skill and its input', () => {
    expect(reviewPrSkill).toMatchObject({
      id: 'review-pr',
      name: 'Review Pull Request',
      description: 'Analyzes a PR diff and returns structured findings with severity ratings',
      tags: ['code-review', 'security', 'quality'],
      examples: [
        'Review this Python PR for security vulnerabilities',
        'Check this diff for style issues per PEP 8',
      ],
      inputModes: ['text/plain', 'application/json', 'text/x-diff', 'text/x-patch'],
      outputModes: ['text/plain', 'application/json'],
      inputSchema: {
        type: 'object',
        properties: {
          diff: { type: 'string' },
          language: { type: 'string' },
          focus: {
            type: 'array',
            items: { type: 'string', enum: ['security', 'style', 'bugs', 'performance'] },
          },
        },
      },
    })
    expect(reviewPrSkill.inputSchema).not.toHaveProperty('required')
  })
})

describe('reviewPrSkill.execute', () => {
  it('reviews a diff sent in a data part and delivers one artifact', async () => {
    const { outcome, artifacts } = await run(
      userMessage(textPart('Review this PR please'), dataPart({ diff: TWO_FILES })),
    )
    const summary = '3 findings in 2 files: 1 critical, 1 high, 1 low'
    expect(outcome).toEqual({ state: 'completed', message: [textPart(summary)] })
    expect(artifacts).toHaveLength(1)
    const { artifact } = artifacts[0]!
    expect(artifact.name).toBe('review-findings')
    expect(artifact.description).toBe('Code review findings')
    expect(artifact.parts[0]).toEqual(
      textPart(
        lines(
          summary,
          'app/db.py:11 [critical] SQL query built from values by string interpolation or concatenation',
          'web/api.ts:22 [high] TLS certificate verification is disabled, allowing man-in-the-middle attacks',
          'web/api.ts:21 [low] Leftover debug output',
        ),
      ),
    )
    const data = artifact.parts[1]?.kind === 'data' ? artifact.parts[1].data : undefined
    expect(data).toMatchObject({
      summary,
      files: ['app/db.py', 'web/api.ts'],
      language: null,
      languages: { 'app/db.py': 'python', 'web/api.ts': 'typescript' },
      focus: ['security', 'style', 'bugs', 'performance'],
    })
    expect(data?.findings).toEqual([
      expect.objectContaining({
        severity: 'critical',
        file: 'app/db.py',
        line: 11,
        rule: 'sql-injection',
      }),
      expect.objectContaining({
        severity: 'high',
        file: 'web/api.ts',
        line: 22,
        rule: 'tls-verification-disabled',
      }),
      {
        severity: 'low',
        category: 'style',
        file: 'web/api.ts',
        line: 21,
        issue: 'Leftover debug output',
        recommendation: 'Remove it, or use the project logger at an appropriate level',
        rule: 'debug-output',
      },
    ])
  })

  it('finds a diff in a text part after prose, and takes a language hint from the prose', async () => {
    const { outcome, artifacts } = await run(
      userMessage(
        textPart(
          `Hi! Please review this Python change for security issues:\n\n\`\`\`diff\n${PY_DIFF}\n\`\`\``,
        ),
      ),
    )
    expect(outcome).toEqual({
      state: 'completed',
      message: [textPart('1 finding in 1 file: 1 critical')],
    })
    const data = artifacts[0]?.artifact.parts[1]
    expect(data).toMatchObject({
      kind: 'data',
      data: { files: ['app/db.py'], language: 'python', findings: [{ line: 11 }] },
    })
  })

  it('reviews a diff sent as a file: a diff media type, or a text file named .diff or .patch', async () => {
    const file = (mimeType: string, name: string) => ({
      kind: 'file' as const,
      file: { name, mimeType, bytes: Buffer.from(PY_DIFF).toString('base64') },
    })
    for (const part of [
      file('text/x-diff', 'change'),
      file('text/x-patch', 'change'),
      file('text/plain', 'change.patch'),
    ]) {
      const { outcome, artifacts } = await run(userMessage(textPart('Please review'), part))
      expect(outcome).toEqual({
        state: 'completed',
        message: [textPart('1 finding in 1 file: 1 critical')],
      })
      expect(artifacts[0]?.artifact.parts[1]).toMatchObject({
        data: { files: ['app/db.py'], findings: [{ line: 11, rule: 'sql-injection' }] },
      })
    }
  })

  it('asks for the diff when the only file is not one, or is a URI it does not fetch', async () => {
    for (const file of [
      { name: 'notes.txt', mimeType: 'text/plain', bytes: Buffer.from(PY_DIFF).toString('base64') },
      { name: 'change.patch', mimeType: 'text/x-diff', uri: 'https://example.com/change.patch' },
    ]) {
      const { outcome } = await run(userMessage({ kind: 'file', file }))
      expect(outcome).toEqual({ state: 'input-required', message: [textPart(ASK_FOR_DIFF)] })
    }
  })

  it('reports progress per file', async () => {
    const { progress } = await run(userMessage(textPart(TWO_FILES)))
    expect(progress).toEqual(['Analyzing file 1/2: app/db.py…', 'Analyzing file 2/2: web/api.ts…'])
  })

  it('says so when there is nothing to find', async () => {
    const clean = newFile('src/sum.ts', [
      'export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0)',
    ])
    const { outcome, artifacts } = await run(userMessage(dataPart({ diff: clean })))
    expect(outcome).toEqual({
      state: 'completed',
      message: [textPart('No issues found in 1 file')],
    })
    expect(artifacts[0]?.artifact.parts[0]).toEqual(textPart('No issues found in 1 file'))
  })

  it('says there was nothing to review when the diff only removes lines', async () => {
    const removal = lines(
      'diff --git a/app/db.py b/app/db.py',
      'index 5d6e7f8..1a2b3c4 100644',
      '--- a/app/db.py',
      '+++ b/app/db.py',
      '@@ -8,4 +8,3 @@ def get_conn():',
      ' def find_user(conn, user_id):',
      '     with conn.cursor() as cur:',
      "-        raw_query = f'SELECT * FROM users WHERE id = {user_id}'",
      '         return cur.fetchone()',
    )
    const { outcome, artifacts } = await run(
      userMessage(dataPart({ diff: removal, focus: ['security'] })),
    )
    const summary = 'No added lines to review in 1 file (removed lines are not reviewed)'
    expect(outcome).toEqual({ state: 'completed', message: [textPart(summary)] })
    expect(artifacts[0]?.artifact.parts[1]).toMatchObject({
      data: { summary, findings: [], files: ['app/db.py'] },
    })
  })

  describe('when the "diff" field holds only changed lines, without headers', () => {
    it("completes the brief's example, a single removed line, with nothing to review", async () => {
      const { outcome } = await run(
        userMessage(
          textPart('Review this diff for security issues'),
          dataPart({
            diff: "- raw_query = f'SELECT * FROM users WHERE id = {user_id}'",
            focus: ['security'],
          }),
        ),
      )
      expect(outcome).toEqual({
        state: 'completed',
        message: [textPart('No added lines to review in 1 file (removed lines are not reviewed)')],
      })
    })

    it('reviews the added lines, numbered from the first line, and says so', async () => {
      const changed = lines(
        ' def find(cursor, user_id):',
        "-    raw_query = 'SELECT id FROM users WHERE id = %s'",
        "+    raw_query = f'SELECT id FROM users WHERE id = {user_id}'",
        '',
        '+    return eval(cursor.fetchone()[0])',
        '',
      )
      const { outcome, artifacts } = await run(
        userMessage(dataPart({ diff: changed, language: 'python' })),
      )
      const summary =
        '2 findings in 1 file: 1 critical, 1 high (the diff has no file headers or @@ hunks: lines are numbered from its first line)'
      expect(outcome).toEqual({ state: 'completed', message: [textPart(summary)] })
      expect(artifacts[0]?.artifact.parts[1]).toMatchObject({
        data: {
          files: ['(unnamed)'],
          findings: [
            { file: '(unnamed)', line: 2, rule: 'sql-injection' },
            { file: '(unnamed)', line: 4, rule: 'code-eval' },
          ],
        },
      })
    })

    it('still refuses text that is not a diff, saying what to send', async () => {
      for (const diff of ['just some words', '--- a/app/db.py\n+++ b/app/db.py\n']) {
        const { outcome } = await run(userMessage(dataPart({ diff })))
        expect(outcome).toEqual({
          state: 'rejected',
          message: [
            textPart(
              'The "diff" field does not contain a unified diff (no ---/+++ file headers or @@ hunks): send the output of git diff or diff -u, or only the changed lines, each starting with + or -',
            ),
          ],
        })
      }
    })
  })

  it('runs only the requested focus', async () => {
    const { outcome, artifacts } = await run(
      userMessage(dataPart({ diff: TWO_FILES, focus: ['style'] })),
    )
    expect(outcome).toEqual({
      state: 'completed',
      message: [textPart('1 finding in 1 file: 1 low')],
    })
    expect(artifacts[0]?.artifact.parts[1]).toMatchObject({
      data: { focus: ['style'], findings: [{ rule: 'debug-output' }] },
    })
  })

  it('asks for the diff when none was sent, and reviews the one sent next', async () => {
    const first = userMessage(textPart('Can you review my PR?'))
    const asked = await run(first)
    expect(asked.outcome).toEqual({ state: 'input-required', message: [textPart(ASK_FOR_DIFF)] })

    const answered = await run(
      first,
      agentReply(textPart(ASK_FOR_DIFF)),
      userMessage(textPart(PY_DIFF)),
    )
    expect(answered.outcome).toMatchObject({ state: 'completed' })
    expect(answered.artifacts).toHaveLength(1)
  })

  describe('when no file reveals the language', () => {
    const first = userMessage(dataPart({ diff: SCRIPT_DIFF }))
    const question = askForLanguage()

    it('asks which language the diff is in, before any work', async () => {
      const { outcome, progress, artifacts } = await run(first)
      expect(outcome).toEqual({ state: 'input-required', message: [textPart(question)] })
      expect(question).toMatch(/^Which programming language is this diff in\? .*python, javascript/)
      expect(progress).toEqual([])
      expect(artifacts).toEqual([])
    })

    it.each([
      ['python', textPart('python')],
      ["It's Python", textPart("It's Python.")],
      ['a data part', dataPart({ language: 'py' })],
    ])('completes the review with the answer given as %s', async (_label, answer) => {
      const { outcome, artifacts } = await run(
        first,
        agentReply(textPart(question)),
        userMessage(answer),
      )
      expect(outcome).toEqual({
        state: 'completed',
        message: [textPart('1 finding in 1 file: 1 high')],
      })
      expect(artifacts[0]?.artifact.parts[1]).toMatchObject({
        data: {
          language: 'python',
          languages: { 'bin/cleanup': 'python' },
          findings: [{ file: 'bin/cleanup', line: 2, severity: 'high', rule: 'shell-injection' }],
        },
      })
    })

    it('asks again, saying why, when the answer names no language it knows', async () => {
      const { outcome } = await run(
        first,
        agentReply(textPart(question)),
        userMessage(textPart('klingon')),
      )
      expect(outcome).toEqual({
        state: 'input-required',
        message: [textPart(askForLanguage('klingon'))],
      })
      expect(askForLanguage('klingon')).toMatch(
        /^"klingon" is not a language I have rules for\. Which/,
      )
    })

    it('explains when the language it was given is one it has no rules for', async () => {
      const { outcome } = await run(userMessage(dataPart({ diff: SCRIPT_DIFF, language: 'COBOL' })))
      expect(outcome).toEqual({
        state: 'input-required',
        message: [textPart(askForLanguage('COBOL'))],
      })
      expect(askForLanguage('COBOL')).toMatch(/^"COBOL" is not a language I have rules for\. Which/)
    })
  })

  it('stops without delivering anything when the task is already aborted', async () => {
    const test = createContext([userMessage(dataPart({ diff: TWO_FILES }))])
    test.controller.abort()
    await expect(reviewPrSkill.execute(test.ctx)).resolves.toBeUndefined()
    expect(test.progress).toEqual([])
    expect(test.artifacts).toEqual([])
  })

  it('stops between files when aborted mid-review', async () => {
    const test = createContext([userMessage(dataPart({ diff: TWO_FILES }))], {
      onProgress: (_text, controller) => controller.abort(),
    })
    await expect(reviewPrSkill.execute(test.ctx)).resolves.toBeUndefined()
    expect(test.progress).toEqual(['Analyzing file 1/2: app/db.py…'])
    expect(test.artifacts).toEqual([])
  })

  it('reviews the lines a miscounted hunk header leaves out, and says so', async () => {
    const { outcome } = await run(userMessage(dataPart({ diff: MISCOUNTED_HUNK })))
    expect(outcome).toMatchObject({
      state: 'completed',
      message: [
        textPart(
          '3 findings in 1 file: 3 high (the hunk headers of x.py count fewer lines than they hold: the rest was reviewed too, but line numbers may be off)',
        ),
      ],
    })
  })

  it('says it does not read the combined diff of a merge, and what to send instead', async () => {
    const merge = [
      'diff --cc m.py',
      'index 407de30,4d619cd..f70e1ac',
      '--- a/m.py',
      '+++ b/m.py',
      '@@@ -1,1 -1,2 +1,3 @@@',
      ' -x = 1',
      ' +x = 2',
      '+ eval(a)',
      '++exec(b)',
    ].join('\n')
    for (const part of [textPart(merge), dataPart({ diff: merge })]) {
      const { outcome } = await run(userMessage(part))
      expect(outcome).toEqual({
        state: 'rejected',
        message: [
          textPart(
            'This is the combined diff of a merge commit (diff --cc), which review-pr does not read: send the diff against one parent instead, e.g. git diff HEAD^1 HEAD',
          ),
        ],
      })
    }
  })

  it('rejects an unknown focus value, naming it', async () => {
    const { outcome, progress } = await run(
      userMessage(dataPart({ diff: TWO_FILES, focus: ['security', 'lint'] })),
    )
    expect(outcome).toEqual({
      state: 'rejected',
      message: [
        textPart(
          'Unknown focus "lint": expected one or more of: security, style, bugs, performance',
        ),
      ],
    })
    expect(progress).toEqual([])
  })

  it.each([
    [{ diff: 42 }, 'The "diff" field must be a string'],
    [{ diff: 'just some words' }, 'The "diff" field does not contain a unified diff'],
    [{ diff: TWO_FILES, focus: 'security' }, 'The "focus" field must be an array'],
    [{ diff: TWO_FILES, language: ['python'] }, 'The "language" field must be a string'],
  ])('rejects malformed data %j', async (data, reason) => {
    const { outcome } = await run(userMessage(dataPart(data)))
    expect(outcome).toMatchObject({ state: 'rejected' })
    expect(outcome?.message?.[0]).toMatchObject({
      kind: 'text',
      text: expect.stringContaining(reason),
    })
  })
})
