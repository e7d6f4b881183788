/**
 * Answers to a task's questions, read from stdin one line each: typed at the terminal or piped
 * in (`echo red | a2a send …`). The prompt goes to stderr so stdout stays the task's output.
 * stdin is opened only when a question comes, so commands that ask nothing never read it.
 */
import { createInterface } from 'node:readline'
import type { Interface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'

export interface Answers {
  /** The next non-empty line, or undefined when none can come (--no-input, or stdin ended). */
  next(): Promise<string | undefined>
  close(): void
}

export const noAnswers: Answers = {
  next: () => Promise.resolve(undefined),
  close: () => undefined,
}

/** At a terminal, the prompt; from a pipe, the answer after it, so a log shows what was said. */
export function stdinAnswers(
  input: Readable & { isTTY?: boolean },
  prompt: Pick<Writable, 'write'>,
): Answers {
  const terminal = input.isTTY === true
  let reader: Interface | undefined
  let lines: AsyncIterator<string> | undefined
  return {
    async next() {
      if (reader === undefined) {
        reader = createInterface({ input, terminal: false })
        lines = reader[Symbol.asyncIterator]()
      }
      for (;;) {
        if (terminal) prompt.write('answer> ')
        const line = await lines!.next()
        if (line.done === true) {
          if (terminal) prompt.write('\n')
          return undefined
        }
        const answer = line.value.trim()
        if (answer === '') continue
        if (!terminal) prompt.write(`answer> ${answer}\n`)
        return answer
      }
    },
    close() {
      reader?.close()
    },
  }
}
