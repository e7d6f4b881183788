/**
 * The brief's stream: every SSE event is the Task as its clients read it (status, artifacts so
 * far), and the last one has `final: true`. Frames are folded from the task's event log, so a
 * resumed stream rebuilds exactly the snapshots it would have sent, except that a replayed wait
 * for input the task has since left (it was answered) is not final: only the last frame is.
 */
import type { StoredEvent } from '../../domain/events.js'
import type { Artifact, TaskStatus } from '../../domain/model.js'
import { mergeArtifact } from '../../domain/task-change.js'
import { artifactToSeed, statusToSeed } from './codec.js'

export interface SeedFrame {
  id: string
  data: ReturnType<SeedFolder['snapshot']>
  final: boolean
}

export class SeedFolder {
  #status: TaskStatus | undefined
  #artifacts: Artifact[] = []

  constructor(
    private readonly taskId: string,
    private readonly sessionId: string,
  ) {}

  /** Folds one event in and returns the frame for it; `superseded`: later events follow it. */
  next({ id, event }: StoredEvent, superseded = false): SeedFrame {
    let final = false
    if (event.kind === 'status-update') {
      this.#status = event.status
      final = event.final && !superseded
    } else {
      this.#artifacts = mergeArtifact(this.#artifacts, event.artifact, event.append)
    }
    return { id, data: this.snapshot(final), final }
  }

  snapshot(final: boolean) {
    return {
      id: this.taskId,
      sessionId: this.sessionId,
      status: this.#status && statusToSeed(this.#status),
      artifacts: this.#artifacts.map(artifactToSeed),
      final,
    }
  }
}
