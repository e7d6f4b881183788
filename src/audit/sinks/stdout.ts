/**
 * Audit records as JSON lines on stdout, beside the pino log lines. An audit line starts with
 * `{"audit":1,` and has no `level` or `msg`; a pino line always has both, so a collector can
 * route them apart (e.g. `jq 'select(.audit)'`). The chain is per process run: it starts at
 * seq 1 when the process starts.
 */
import type { Writable } from 'node:stream'
import { chain } from '../hash.js'
import type { AuditEntry, ChainHead } from '../record.js'
import { EMPTY_HEAD } from '../record.js'
import type { AuditSink } from '../sink.js'

export class StdoutAuditSink implements AuditSink {
  readonly name = 'stdout'
  #head: ChainHead = EMPTY_HEAD

  constructor(private readonly out: Writable = process.stdout) {}

  async open(): Promise<void> {}

  append(entries: readonly AuditEntry[]): Promise<void> {
    const records = chain(entries, this.#head)
    const text = records.map(({ line }) => `${line}\n`).join('')
    return new Promise((resolve, reject) => {
      this.out.write(text, (error) => {
        if (error) return reject(error)
        this.#head = records[records.length - 1] ?? this.#head
        resolve()
      })
    })
  }

  async close(): Promise<void> {}
}
