/**
 * The human output of a conversation with an agent. It remembers what it has shown, so that a
 * task read again (each turn of a send, the snapshot a continued stream starts with) shows only
 * what is new: a new status, new artifacts, new chunks of an artifact.
 */
import type { RemoteMessage, RemoteTask, StreamEvent } from '../../client/model.js'
import type { Artifact, TaskStatus } from '../../domain/model.js'
import { artifactLines, replyLines, statusLines } from './render.js'

export class Printer {
  #taskId: string | undefined
  #status: string | undefined
  readonly #parts = new Map<string, number>()
  /** Chunks after the first may come without the artifact's name. */
  readonly #names = new Map<string, string>()

  constructor(private readonly write: (lines: string[]) => void) {}

  event(event: StreamEvent): void {
    switch (event.kind) {
      case 'task':
        return this.task(event)
      case 'message':
        return this.reply(event)
      case 'status-update':
        return this.#showStatus(event.status)
      case 'artifact-update':
        return this.#showArtifact(event.artifact, event.append)
    }
  }

  /** The task's first line, its id, once: shown as soon as the id is known. */
  id(taskId: string): void {
    if (taskId === this.#taskId) return
    this.#taskId = taskId
    this.write([`task ${taskId}`])
  }

  task(task: RemoteTask): void {
    this.id(task.id)
    for (const artifact of task.artifacts) {
      const shown = this.#parts.get(artifact.artifactId) ?? 0
      if (shown === 0) this.#showArtifact(artifact, false)
      else if (artifact.parts.length > shown) {
        this.#showArtifact({ ...artifact, parts: artifact.parts.slice(shown) }, true)
      }
    }
    this.#showStatus(task.status)
  }

  reply(message: RemoteMessage): void {
    this.write(replyLines(message))
  }

  #showStatus(status: TaskStatus): void {
    const lines = statusLines(status)
    const key = lines.join('\n')
    if (key === this.#status) return
    this.#status = key
    this.write(lines)
  }

  #showArtifact(artifact: Artifact, append: boolean): void {
    const shown = append ? (this.#parts.get(artifact.artifactId) ?? 0) : 0
    this.#parts.set(artifact.artifactId, shown + artifact.parts.length)
    if (artifact.name !== undefined) this.#names.set(artifact.artifactId, artifact.name)
    const name = artifact.name ?? this.#names.get(artifact.artifactId)
    this.write(artifactLines({ ...artifact, ...(name !== undefined && { name }) }, append))
  }
}
