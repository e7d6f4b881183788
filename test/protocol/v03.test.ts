/** The A2A 0.3 codec, error table and card: `kind` discriminators, lowercase states, `final`. */
import { describe, expect, it } from 'vitest'
import { TaskNotFoundError, UnsupportedOperationError } from '../../src/domain/errors.js'
import { renderV03Card } from '../../src/protocol/v03/card.js'
import {
  eventToV03,
  messageFromV03,
  sendResultToV03,
  taskToV03,
} from '../../src/protocol/v03/codec.js'
import { v03RpcErrorReply } from '../../src/protocol/v03/errors.js'
import { MessageSendParams } from '../../src/protocol/v03/schemas.js'
import { agent, endpoints, sampleTask } from '../helpers/a2a.js'

describe('A2A 0.3 codec', () => {
  it('reads kind-tagged parts', () => {
    const { message } = MessageSendParams.parse({
      message: {
        kind: 'message',
        messageId: 'm',
        role: 'user',
        parts: [
          { kind: 'text', text: 'hi' },
          { kind: 'file', file: { uri: 'https://x.example/f', mimeType: 'image/png' } },
          { kind: 'data', data: { k: 1 } },
        ],
      },
    })
    expect(messageFromV03(message).parts).toEqual([
      { kind: 'text', text: 'hi' },
      { kind: 'file', file: { uri: 'https://x.example/f', mimeType: 'image/png' } },
      { kind: 'data', data: { k: 1 } },
    ])
  })

  it('renders the task as kind "task" with lowercase states and ids on every message', () => {
    expect(taskToV03(sampleTask())).toMatchObject({
      kind: 'task',
      id: 't-1',
      contextId: 'c-1',
      status: {
        state: 'completed',
        message: { kind: 'message', role: 'agent', contextId: 'c-1', taskId: 't-1' },
      },
      history: [{ kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, {}],
      artifacts: [{ artifactId: 'art-1', parts: [{ kind: 'data', data: { n: 1 } }] }],
    })
  })

  it('answers a direct reply with a bare message that has a context and no task', () => {
    const direct = sampleTask({
      artifacts: [],
      status: { ...sampleTask().status, directReply: true },
    })
    expect(sendResultToV03(direct)).toEqual({
      kind: 'message',
      messageId: 'a-1',
      role: 'agent',
      parts: [{ kind: 'text', text: 'done' }],
      contextId: 'c-1',
    })
  })

  it('marks the status update that ends a stream with final: true', () => {
    const event = eventToV03({
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'input-required', timestamp: 'now' },
      final: true,
    })
    expect(event).toEqual({
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'input-required', timestamp: 'now' },
      final: true,
    })
  })
})

describe('A2A 0.3 error table', () => {
  it('carries the code and a plain data object', () => {
    expect(v03RpcErrorReply(new TaskNotFoundError('t'), 3)).toEqual({
      statusCode: 200,
      body: {
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32001, message: 'Task t not found', data: { taskId: 't' } },
      },
    })
    expect(v03RpcErrorReply(new UnsupportedOperationError('no'), null).body.error).toEqual({
      code: -32004,
      message: 'no',
    })
  })
})

describe('A2A 0.3 Agent Card', () => {
  it('has url, preferredTransport and protocolVersion, and the 1.0 interfaces too', () => {
    const card = renderV03Card(agent, { endpoints, extendedCard: false })
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: endpoints.jsonRpcUrl,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
      supportsAuthenticatedExtendedCard: false,
    })
    expect(card.supportedInterfaces).toHaveLength(3)
  })

  it('declares bearer auth in the OpenAPI style of 0.3', () => {
    const card = renderV03Card(
      { ...agent, authSchemes: ['Bearer'] },
      { endpoints, extendedCard: false },
    )
    expect(card.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
    })
    expect(card.security).toEqual([{ bearer: [] }])
  })
})
