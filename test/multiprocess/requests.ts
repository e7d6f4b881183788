/** Requests in the brief's dialect against a server process, as a client sends them. */
import { randomUUID } from 'node:crypto'
import { authHeaders } from '../helpers/auth.js'
import { textMessage } from '../helpers/bodies.js'

export interface Reply {
  status: number
  body: any
}

export async function post(url: string, path: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      ...authHeaders(),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json() }
}

export async function get(url: string, path: string): Promise<Reply> {
  const response = await fetch(`${url}${path}`, { headers: authHeaders() })
  return { status: response.status, body: await response.json() }
}

/** A /tasks/send body for a fixture skill, with a fresh task id. */
export const taskFor = (skillId: string, text = '') => ({
  id: randomUUID(),
  message: textMessage(text),
  metadata: { skillId },
})
