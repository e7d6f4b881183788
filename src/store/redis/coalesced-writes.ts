/**
 * One socket write per turn of the event loop for all the commands a connection sends in it.
 * ioredis writes every command to its socket at once: a send runs several scripts, and with
 * concurrent requests that is many small writes per turn, each a syscall that also wakes Redis
 * (a quarter of a Redis-backed send's CPU time). Corking the socket at the first write of a turn
 * and uncorking it once the turn's I/O callbacks have run (setImmediate) sends them as one.
 *
 * Commands keep ioredis's own queueing and failure handling: only the bytes of commands already
 * handed to the socket wait, for the rest of the turn, and a connection that drops meanwhile
 * fails them like any command in flight. (ioredis's enableAutoPipelining batches too, but holds
 * commands in its own queue, which during an outage delays them instead of failing them.)
 */
import type { Socket } from 'node:net'
import type { Redis } from 'ioredis'

const CORKED_PER_TURN = Symbol('a2a.corkedPerTurn')

/** Coalesces the writes of `redis`, on every connection it makes (reconnections too). */
export function coalesceWrites(redis: Redis): Redis {
  redis.on('connect', () => corkPerTurn(redis.stream))
  return redis
}

function corkPerTurn(socket: Socket & { [CORKED_PER_TURN]?: true }): void {
  if (socket[CORKED_PER_TURN]) return
  socket[CORKED_PER_TURN] = true
  const write = socket.write.bind(socket)
  let corked = false
  const uncork = () => {
    corked = false
    socket.uncork()
  }
  socket.write = ((...args: Parameters<Socket['write']>) => {
    if (!corked) {
      corked = true
      socket.cork()
      setImmediate(uncork)
    }
    return write(...args)
  }) as Socket['write']
}
