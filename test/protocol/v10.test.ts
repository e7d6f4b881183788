/** The A2A 1.0 codec, error table and card (spec §4 data objects, §5.4 errors, §8 card). */
import { describe, expect, it } from 'vitest'
import {
  ContentTypeNotSupportedError,
  InvalidRequestError,
  InvalidTaskStateError,
  MalformedJsonError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '../../src/domain/errors.js'
import { agent, endpoints, sampleTask } from '../helpers/a2a.js'
import { renderV10Card } from '../../src/protocol/v10/card.js'
import {
  eventToV10,
  messageFromV10,
  sendResultToV10,
  stateFromV10,
  stateToV10,
  taskToV10,
} from '../../src/protocol/v10/codec.js'
import { v10RestErrorReply, v10RpcErrorReply } from '../../src/protocol/v10/errors.js'
import { fromProtoNames } from '../../src/protocol/v10/proto-json.js'
import { SendMessageRequest, V10Part } from '../../src/protocol/v10/schemas.js'

const timestamp = '2026-01-01T00:00:00.000Z'

describe('A2A 1.0 codec (§4)', () => {
  it('spells every state as TASK_STATE_* and reads it back', () => {
    expect(stateToV10('input-required')).toBe('TASK_STATE_INPUT_REQUIRED')
    expect(stateToV10('canceled')).toBe('TASK_STATE_CANCELED')
    expect(stateFromV10('TASK_STATE_AUTH_REQUIRED')).toBe('auth-required')
    expect(stateFromV10('TASK_STATE_UNSPECIFIED')).toBeUndefined()
  })

  it('reads flat parts: text, raw bytes, url and data', () => {
    const message = messageFromV10(
      SendMessageRequest.parse({
        message: {
          messageId: 'm',
          role: 'ROLE_USER',
          parts: [
            { text: 'hi' },
            { raw: 'aGk=', filename: 'a.txt', mediaType: 'text/plain' },
            { url: 'https://x.example/f', mediaType: 'image/png' },
            { data: { k: 1 } },
          ],
          referenceTaskIds: ['old'],
        },
      }).message,
    )
    expect(message).toEqual({
      messageId: 'm',
      role: 'user',
      parts: [
        { kind: 'text', text: 'hi' },
        { kind: 'file', file: { bytes: 'aGk=', name: 'a.txt', mimeType: 'text/plain' } },
        { kind: 'file', file: { uri: 'https://x.example/f', mimeType: 'image/png' } },
        { kind: 'data', data: { k: 1 } },
      ],
      referenceTaskIds: ['old'],
    })
  })

  it('refuses a part with two contents or none', () => {
    expect(V10Part.safeParse({ text: 'a', data: {} }).success).toBe(false)
    expect(V10Part.safeParse({ filename: 'x' }).success).toBe(false)
  })

  it('renders a task with roles, ids on every message, artifacts and history', () => {
    expect(taskToV10(sampleTask())).toEqual({
      id: 't-1',
      contextId: 'c-1',
      status: {
        state: 'TASK_STATE_COMPLETED',
        message: {
          messageId: 'a-1',
          contextId: 'c-1',
          taskId: 't-1',
          role: 'ROLE_AGENT',
          parts: [{ text: 'done' }],
        },
        timestamp,
      },
      artifacts: [{ artifactId: 'art-1', name: 'echo', parts: [{ data: { n: 1 } }] }],
      history: [
        {
          messageId: 'u-1',
          contextId: 'c-1',
          taskId: 't-1',
          role: 'ROLE_USER',
          parts: [{ text: 'hi' }],
        },
        {
          messageId: 'a-1',
          contextId: 'c-1',
          taskId: 't-1',
          role: 'ROLE_AGENT',
          parts: [{ text: 'done' }],
        },
      ],
    })
  })

  it('applies historyLength: 0 omits history, n keeps the n most recent', () => {
    expect(taskToV10(sampleTask(), { historyLength: 0 })).not.toHaveProperty('history')
    expect(taskToV10(sampleTask(), { historyLength: 1 }).history?.map((m) => m.messageId)).toEqual([
      'a-1',
    ])
  })

  it('omits the artifacts key entirely when artifacts are not included', () => {
    expect(taskToV10(sampleTask(), { includeArtifacts: false })).not.toHaveProperty('artifacts')
  })

  it('answers a send with {task}, or with {message} for a direct reply on the first turn', () => {
    expect(sendResultToV10(sampleTask())).toHaveProperty('task.id', 't-1')
    const direct = sampleTask({
      artifacts: [],
      status: { ...sampleTask().status, directReply: true },
    })
    expect(sendResultToV10(direct)).toEqual({
      message: {
        messageId: 'a-1',
        contextId: 'c-1',
        role: 'ROLE_AGENT',
        parts: [{ text: 'done' }],
      },
    })
  })

  it('wraps stream events by member name, without `final` or `kind`', () => {
    const status = eventToV10({
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'working', timestamp },
      final: false,
    })
    expect(status).toEqual({
      statusUpdate: {
        taskId: 't',
        contextId: 'c',
        status: { state: 'TASK_STATE_WORKING', timestamp },
      },
    })
    const chunk = eventToV10({
      kind: 'artifact-update',
      taskId: 't',
      contextId: 'c',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
      append: true,
      lastChunk: false,
    })
    expect(chunk).toEqual({
      artifactUpdate: {
        taskId: 't',
        contextId: 'c',
        artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
        append: true,
      },
    })
  })

  it('accepts proto field names and leaves metadata and data as sent', () => {
    expect(
      fromProtoNames({
        history_length: 2,
        message: { message_id: 'm', metadata: { snake_key: 1 }, parts: [{ data: { a_b: 1 } }] },
      }),
    ).toEqual({
      historyLength: 2,
      message: { messageId: 'm', metadata: { snake_key: 1 }, parts: [{ data: { a_b: 1 } }] },
    })
  })
})

describe('A2A 1.0 error table (§5.4)', () => {
  const cases = [
    [new TaskNotFoundError('t'), -32001, 'TASK_NOT_FOUND', 404, 'NOT_FOUND'],
    [
      new TaskNotCancelableError('t', 'completed'),
      -32002,
      'TASK_NOT_CANCELABLE',
      409,
      'FAILED_PRECONDITION',
    ],
    [
      new PushNotificationNotSupportedError(),
      -32003,
      'PUSH_NOTIFICATION_NOT_SUPPORTED',
      400,
      'UNIMPLEMENTED',
    ],
    [new UnsupportedOperationError('no'), -32004, 'UNSUPPORTED_OPERATION', 400, 'UNIMPLEMENTED'],
    [
      new InvalidTaskStateError('t', 'working', ['input-required']),
      -32004,
      'UNSUPPORTED_OPERATION',
      400,
      'UNIMPLEMENTED',
    ],
    [
      new ContentTypeNotSupportedError('image/png', 'message.parts[0]', ['text/plain']),
      -32005,
      'CONTENT_TYPE_NOT_SUPPORTED',
      415,
      'INVALID_ARGUMENT',
    ],
    [
      new VersionNotSupportedError('2.0', ['1.0']),
      -32009,
      'VERSION_NOT_SUPPORTED',
      400,
      'UNIMPLEMENTED',
    ],
    [
      new InvalidRequestError('is required', 'message'),
      -32602,
      'INVALID_PARAMS',
      400,
      'INVALID_ARGUMENT',
    ],
    [new MalformedJsonError(), -32700, 'PARSE_ERROR', 400, 'INVALID_ARGUMENT'],
  ] as const

  it.each(cases)('%s → JSON-RPC %d with ErrorInfo %s', (error, code, reason) => {
    const { statusCode, body } = v10RpcErrorReply(error, 7)
    expect(statusCode).toBe(200)
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code, message: error.message } })
    expect(body.error.data?.[0]).toEqual(
      expect.objectContaining({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason,
        domain: 'a2a-protocol.org',
      }),
    )
  })

  it.each(cases)('%s → HTTP+JSON google.rpc.Status', (error, _code, reason, http, status) => {
    const { statusCode, body } = v10RestErrorReply(error)
    expect(statusCode).toBe(http)
    expect(body.error).toMatchObject({ code: http, status, message: error.message })
    expect(body.error.details[0]).toMatchObject({ reason, domain: 'a2a-protocol.org' })
  })

  it('adds a BadRequest field violation when the error names a field', () => {
    const { body } = v10RpcErrorReply(
      new InvalidRequestError('is required', 'message.messageId'),
      1,
    )
    expect(body.error.data?.[1]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [
        { field: 'message.messageId', description: 'message.messageId: is required' },
      ],
    })
  })
})

describe('A2A 1.0 Agent Card (§8)', () => {
  it('lists every binding and version served, 1.0 first', () => {
    const card = renderV10Card(agent, { endpoints, extendedCard: false })
    expect(card.supportedInterfaces).toEqual([
      { url: endpoints.jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: endpoints.restUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: endpoints.jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ])
    expect(card.capabilities).toEqual({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
    })
    expect(card).not.toHaveProperty('url')
    expect(card.skills[0]).not.toHaveProperty('inputSchema')
  })

  it('declares bearer auth as an httpAuthSecurityScheme required by the agent and each skill', () => {
    const card = renderV10Card(
      { ...agent, authSchemes: ['Bearer'] },
      { endpoints, extendedCard: false },
    )
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    })
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }])
    expect(card.skills[0]?.securityRequirements).toEqual(card.securityRequirements)
  })
})
