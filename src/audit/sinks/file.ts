/**
 * Audit records appended to a file, one JSON line each. On open the sink reads the file's last
 * record and continues the chain from it, so a restart does not break the chain. A last line
 * left incomplete by a crash stays in the file (the verifier reports it); the sink starts the
 * next record on a fresh line after it and chains from the last complete record. The sink holds
 * the file's lock while it is open (file-lock.ts): a second writer is refused.
 */
import type { FileHandle } from 'node:fs/promises'
import { open } from 'node:fs/promises'
import type { Logger } from 'pino'
import { chain } from '../hash.js'
import type { AuditEntry, ChainHead } from '../record.js'
import { AuditRecord, EMPTY_HEAD } from '../record.js'
import type { AuditSink } from '../sink.js'
import type { AuditFileLockOptions } from './file-lock.js'
import { lockAuditFile } from './file-lock.js'

/** How much of the file's end is read to find its last record (a record is far smaller). */
const TAIL_BYTES = 64 * 1024

export class FileAuditSink implements AuditSink {
  readonly name = 'file'
  #handle: FileHandle | undefined
  #head: ChainHead = EMPTY_HEAD
  #startOnNewLine = false
  #unlock: (() => Promise<void>) | undefined

  constructor(
    private readonly path: string,
    private readonly log: Logger,
    private readonly lockOptions: AuditFileLockOptions = {},
  ) {}

  async open(): Promise<void> {
    // Made readable by its owner alone: records name callers, tenants and client addresses.
    // (A file that exists keeps its mode.)
    this.#handle = await open(this.path, 'a+', 0o600)
    try {
      this.#unlock = await lockAuditFile(this.path, this.log, this.lockOptions)
      this.#head = await this.#lastRecord(this.#handle)
    } catch (error) {
      await this.close()
      throw error
    }
  }

  /** Where the chain stands in the file: its last complete record. */
  async #lastRecord(handle: FileHandle): Promise<ChainHead> {
    const { size } = await handle.stat()
    if (size === 0) return EMPTY_HEAD
    const length = Math.min(size, TAIL_BYTES)
    const { buffer } = await handle.read(Buffer.alloc(length), 0, length, size - length)
    const tail = buffer.toString('utf8')
    this.#startOnNewLine = !tail.endsWith('\n')
    const lines = tail.split('\n').filter((line) => line.trim() !== '')
    for (let i = lines.length - 1; i >= 0; i--) {
      const record = parseRecord(lines[i]!)
      if (record) {
        if (i !== lines.length - 1) {
          this.log.warn(
            { trail: { file: this.path } },
            'the audit file ends with a line that is not a record',
          )
        }
        return { seq: record.seq, hash: record.hash }
      }
    }
    this.log.warn(
      { trail: { file: this.path } },
      'no audit record at the end of the file; a new chain starts',
    )
    return EMPTY_HEAD
  }

  async append(entries: readonly AuditEntry[]): Promise<void> {
    if (!this.#handle) throw new Error('the audit file is not open')
    const records = chain(entries, this.#head)
    const text =
      (this.#startOnNewLine ? '\n' : '') + records.map(({ line }) => `${line}\n`).join('')
    await this.#handle.appendFile(text, 'utf8')
    this.#startOnNewLine = false
    this.#head = records[records.length - 1] ?? this.#head
  }

  async close(): Promise<void> {
    await this.#handle?.close()
    this.#handle = undefined
    // A lock lost meanwhile (see file-lock.ts) was logged then; there is nothing left to free.
    await this.#unlock?.().catch(() => undefined)
    this.#unlock = undefined
  }
}

function parseRecord(line: string): AuditRecord | undefined {
  try {
    const parsed = AuditRecord.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
