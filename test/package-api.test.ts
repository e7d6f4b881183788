import { describe, expect, it } from 'vitest'
import { buildApp, callerClaims, configFrom, defineSkill, signJwt, textPart } from '../src/index.js'

const SECRET = 'an-embedding-secret-of-32-characters-or-more'

describe('the package API', () => {
  it('builds a server around a skill written against it', async () => {
    const shout = defineSkill({
      id: 'shout',
      name: 'Shout',
      description: 'Repeats the message in capitals',
      tags: [],
      async execute(ctx) {
        await ctx.emitArtifact({ name: 'loud', parts: [textPart(ctx.input.text.toUpperCase())] })
        return ctx.complete()
      },
    })
    const app = await buildApp(
      configFrom({ LOG_LEVEL: 'silent', AUDIT_SINK: 'off', AUTH_JWT_SECRET: SECRET }),
      {
        skills: [shout],
      },
    )
    const claims = callerClaims({
      sub: 'me',
      scopes: ['a2a:invoke', 'skill:shout'],
      ttlSeconds: 60,
    })
    const token = signJwt(claims, { alg: 'HS256', key: SECRET })
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        id: '7b0c2d4e-8f10-4a2b-9c3d-5e6f7a8b9c0d',
        message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
      },
    })
    expect(response.json().artifacts[0].parts).toEqual([{ type: 'text', text: 'HELLO' }])
    await app.close()
  })
})
