/**
 * The official client (@a2a-js/sdk 1.3) drives this server over real HTTP: JSON-RPC 1.0,
 * HTTP+JSON 1.0, and its legacy 0.3 JSON-RPC transport. Card resolution, send, stream, get,
 * list, cancel, resubscribe, multi-turn, and each error class it knows.
 */
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { SendMessageRequest } from '@a2a-js/sdk'
import type { Client } from '@a2a-js/sdk/client'
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client'
import {
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { echoSkill } from '../../src/skills/echo/index.js'
import { testApp } from '../helpers/app.js'
import { bearer } from '../helpers/auth.js'

/** The SDK's fetch, with the test caller's token on every request (as a deployment would add). */
const fetchImpl: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers)
  headers.set('authorization', bearer())
  return fetch(input, { ...init, headers })
}
import { askSkill, slowSkill } from '../helpers/skills.js'

/** A free loopback port, so that the card can name the URL the server will listen on. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function startServer(): Promise<{ app: FastifyInstance; base: string }> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const app = await testApp(
    { PUBLIC_URL: base, DEFAULT_SKILL: 'echo' },
    { skills: [echoSkill, askSkill, slowSkill(400)] },
  )
  await app.listen({ host: '127.0.0.1', port })
  return { app, base }
}

/** A SendMessageRequest as the SDK types it, from its ProtoJSON form. */
const request = (
  text: string,
  extra: Record<string, unknown> = {},
  skillId?: string,
  configuration?: Record<string, unknown>,
) =>
  SendMessageRequest.fromJSON({
    ...(configuration && { configuration }),
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...(skillId && { metadata: { skillId } }),
      ...extra,
    },
  })

const textOf = (parts: { content?: { $case: string; value: unknown } }[] | undefined) =>
  (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('')

describe.each(['JSONRPC', 'HTTP+JSON'])('@a2a-js/sdk over %s, A2A 1.0', (transport) => {
  let app: FastifyInstance
  let base: string
  let client: Client
  beforeAll(async () => {
    ;({ app, base } = await startServer())
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        preferredTransports: [transport],
        transports: [
          new JsonRpcTransportFactory({ fetchImpl }),
          new RestTransportFactory({ fetchImpl }),
        ],
      }),
    )
    client = await factory.createFromUrl(base)
  })
  afterAll(() => app.close())

  it('resolves the card and speaks 1.0', async () => {
    const card = await client.getAgentCard()
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toContain(transport)
    expect(client.protocolVersion).toBe('1.0')
  })

  it('sends a message and gets the completed task', async () => {
    const result = await client.sendMessage(request('hello sdk'))
    expect('status' in result).toBe(true)
    if (!('status' in result)) return
    expect(result.status?.state).toBe(3) // TASK_STATE_COMPLETED
    expect(textOf(result.artifacts[0]?.parts)).toBe('hello sdk')
  })

  it('streams: the task first, then updates, ending completed', async () => {
    const kinds: string[] = []
    let lastState: number | undefined
    for await (const event of client.sendMessageStream(request('stream sdk'))) {
      kinds.push(event.payload?.$case ?? '?')
      if (event.payload?.$case === 'statusUpdate') lastState = event.payload.value.status?.state
    }
    expect(kinds[0]).toBe('task')
    expect(kinds).toContain('artifactUpdate')
    expect(lastState).toBe(3)
  })

  it('gets a task with historyLength and lists tasks by context', async () => {
    const contextId = randomUUID()
    const sent = await client.sendMessage(request('listed', { contextId }))
    if (!('status' in sent)) throw new Error('expected a task')
    const task = await client.getTask({ tenant: '', id: sent.id, historyLength: 1 })
    expect(task.history).toHaveLength(1)
    const page = await client.listTasks({
      tenant: '',
      contextId,
      status: 0,
      pageSize: 10,
      pageToken: '',
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: undefined,
    })
    expect(page.tasks.map((t) => t.id)).toEqual([sent.id])
    expect(page.nextPageToken).toBe('')
  })

  it('cancels a running task, and resubscribes to another until it completes', async () => {
    const slow = () => client.sendMessage(request('slow', {}, 'slow', { returnImmediately: true }))
    const first = await slow()
    if (!('status' in first)) throw new Error('expected a task')
    const canceled = await client.cancelTask({ tenant: '', id: first.id, metadata: undefined })
    expect(canceled.status?.state).toBe(5) // TASK_STATE_CANCELED
    const second = await slow()
    if (!('status' in second)) throw new Error('expected a task')
    const cases: string[] = []
    for await (const event of client.resubscribeTask({ tenant: '', id: second.id })) {
      cases.push(event.payload?.$case ?? '?')
    }
    expect(cases[0]).toBe('task')
    expect(cases.at(-1)).toBe('statusUpdate')
  })

  it('continues an input-required task (multi-turn)', async () => {
    const first = await client.sendMessage(request('paint', {}, 'ask'))
    if (!('status' in first)) throw new Error('expected a task')
    expect(first.status?.state).toBe(6) // TASK_STATE_INPUT_REQUIRED
    const second = await client.sendMessage(
      request('green', { taskId: first.id, contextId: first.contextId }),
    )
    if (!('status' in second)) throw new Error('expected a task')
    expect(second.id).toBe(first.id)
    expect(textOf(second.artifacts[0]?.parts)).toBe('colour: green')
  })

  it('raises the SDK’s own error classes', async () => {
    await expect(
      client.getTask({ tenant: '', id: 'nope', historyLength: undefined }),
    ).rejects.toBeInstanceOf(TaskNotFoundError)
    const done = await client.sendMessage(request('done'))
    if (!('status' in done)) throw new Error('expected a task')
    await expect(
      client.cancelTask({ tenant: '', id: done.id, metadata: undefined }),
    ).rejects.toBeInstanceOf(TaskNotCancelableError)
    await expect(client.sendMessage(request('more', { taskId: done.id }))).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    )
    // The client refuses this itself: our card says capabilities.pushNotifications is false.
    const push = async () =>
      client.listTaskPushNotificationConfig({
        tenant: '',
        taskId: done.id,
        pageSize: 0,
        pageToken: '',
      })
    await expect(push()).rejects.toBeInstanceOf(PushNotificationNotSupportedError)
  })
})

describe('@a2a-js/sdk legacy 0.3 JSON-RPC transport', () => {
  let app: FastifyInstance
  let client: Client
  beforeAll(async () => {
    let base: string
    ;({ app, base } = await startServer())
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
    })
    const card = await factory.createFromUrl(base).then((c) => c.getAgentCard())
    // Only the 0.3 interface: the factory then picks the legacy transport.
    client = await factory.createFromAgentCard({
      ...card,
      supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3'),
    })
  })
  afterAll(() => app.close())

  it('speaks 0.3: send, stream, get, cancel and errors', async () => {
    expect(client.protocolVersion).toBe('0.3')
    const sent = await client.sendMessage(request('hello legacy'))
    if (!('status' in sent)) throw new Error('expected a task')
    expect(sent.status?.state).toBe(3)
    expect(textOf(sent.artifacts[0]?.parts)).toBe('hello legacy')
    const cases: string[] = []
    for await (const event of client.sendMessageStream(request('stream legacy'))) {
      cases.push(event.payload?.$case ?? '?')
    }
    expect(cases[0]).toBe('task')
    expect(cases.at(-1)).toBe('statusUpdate')
    const got = await client.getTask({ tenant: '', id: sent.id, historyLength: undefined })
    expect(got.id).toBe(sent.id)
    await expect(
      client.cancelTask({ tenant: '', id: sent.id, metadata: undefined }),
    ).rejects.toBeInstanceOf(TaskNotCancelableError)
    await expect(
      client.getTask({ tenant: '', id: 'nope', historyLength: undefined }),
    ).rejects.toBeInstanceOf(TaskNotFoundError)
  })

  it('continues a multi-turn task over 0.3', async () => {
    const first = await client.sendMessage(request('paint', {}, 'ask'))
    if (!('status' in first)) throw new Error('expected a task')
    const second = await client.sendMessage(
      request('teal', { taskId: first.id, contextId: first.contextId }),
    )
    if (!('status' in second)) throw new Error('expected a task')
    expect(textOf(second.artifacts[0]?.parts)).toBe('colour: teal')
  })
})
