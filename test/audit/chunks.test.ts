/**
 * An artifact streamed in chunks (an LLM's answer, token by token) is audited as emitted and as
 * closed by its last chunk, not once per chunk: the records in between would tell nothing more.
 * The memory store, the file sink, a real send.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { AuditEvent } from '../../src/audit/record.js'
import { textPart } from '../../src/domain/parts.js'
import { defineSkill } from '../../src/skills/skill.js'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'

const dir = mkdtempSync(join(tmpdir(), 'a2a-audit-chunks-'))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const tokens = defineSkill({
  id: 'tokens',
  name: 'Tokens',
  description: 'Answers in chunks',
  tags: ['test'],
  async execute(ctx) {
    const id = await ctx.emitArtifact({ name: 'answer', parts: [textPart('Once')] })
    for (const word of [' upon', ' a', ' time']) {
      await ctx.emitArtifact({ artifactId: id, parts: [textPart(word)] }, { append: true })
    }
    await ctx.emitArtifact(
      { artifactId: id, parts: [textPart('.')] },
      { append: true, lastChunk: true },
    )
    return ctx.complete()
  },
})

it('audits a chunked artifact as emitted and as closed, not per chunk', async () => {
  const file = join(dir, 'audit.log')
  const app = await testApp({ AUDIT_SINK: 'file', AUDIT_FILE: file }, { skills: [tokens] })
  const sent = await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('go') })
  expect(sent.json().artifacts[0].parts).toHaveLength(5)
  await app.close()
  const delivered = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; details: object })
    .filter((record) => record.event === AuditEvent.artifactDelivered)
  expect(delivered.map((record) => record.details)).toEqual([
    { artifactId: expect.any(String), parts: 1, append: false, lastChunk: false },
    { artifactId: expect.any(String), parts: 1, append: true, lastChunk: true },
  ])
})
