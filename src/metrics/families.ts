/**
 * Metric families as plain numbers, rendered in the Prometheus text format (0.0.4) at scrape.
 * A count on the request path costs a Map lookup and an addition; prom-client's own metrics
 * check and hash their labels on every call, which measured as several percent of a send.
 */

/** A family of samples that can be rendered. */
export interface Family {
  render(): string | Promise<string>
}

/** Label values joined into one Map key (no label value holds NUL). */
const keyOf = (values: readonly string[]): string =>
  values.length === 1 ? (values[0] ?? '') : values.join('\u0000')

export class CounterFamily implements Family {
  readonly #samples = new Map<string, { values: readonly string[]; value: number }>()

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[] = [],
  ) {
    if (labelNames.length === 0) this.#samples.set('', { values: [], value: 0 })
  }

  /** Adds 1 (or `by`) to the sample with these label values, in `labelNames` order. */
  inc(values: readonly string[] = [], by = 1): void {
    const key = keyOf(values)
    const sample = this.#samples.get(key)
    if (sample) sample.value += by
    else this.#samples.set(key, { values, value: by })
  }

  render(): string {
    let text = header(this.name, this.help, 'counter')
    for (const { values, value } of this.#samples.values()) {
      text += `${this.name}${labels(this.labelNames, values)} ${value}\n`
    }
    return text
  }
}

interface HistogramSample {
  values: readonly string[]
  /** counts[i]: observations in (buckets[i-1], buckets[i]]; the last: above every bucket. */
  counts: number[]
  sum: number
  count: number
}

export class HistogramFamily implements Family {
  readonly #samples = new Map<string, HistogramSample>()

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    /** Upper bounds, ascending; `+Inf` is added. */
    readonly buckets: readonly number[],
  ) {}

  observe(values: readonly string[], value: number): void {
    const key = keyOf(values)
    let sample = this.#samples.get(key)
    if (sample === undefined) {
      sample = {
        values,
        counts: new Array<number>(this.buckets.length + 1).fill(0),
        sum: 0,
        count: 0,
      }
      this.#samples.set(key, sample)
    }
    let bucket = 0
    while (bucket < this.buckets.length && value > (this.buckets[bucket] ?? Infinity)) bucket++
    sample.counts[bucket] = (sample.counts[bucket] ?? 0) + 1
    sample.sum += value
    sample.count += 1
  }

  render(): string {
    let text = header(this.name, this.help, 'histogram')
    for (const { values, counts, sum, count } of this.#samples.values()) {
      let cumulative = 0
      for (const [index, bound] of [...this.buckets, Infinity].entries()) {
        cumulative += counts[index] ?? 0
        const le = bound === Infinity ? '+Inf' : String(bound)
        text += `${this.name}_bucket${labels([...this.labelNames, 'le'], [...values, le])} ${cumulative}\n`
      }
      text += `${this.name}_sum${labels(this.labelNames, values)} ${sum}\n`
      text += `${this.name}_count${labels(this.labelNames, values)} ${count}\n`
    }
    return text
  }
}

/** One unlabelled value, read when scraped; `undefined` leaves the sample out. */
export class GaugeFamily implements Family {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly read: () => number | undefined | Promise<number | undefined>,
    readonly type: 'gauge' | 'counter' = 'gauge',
  ) {}

  async render(): Promise<string> {
    const value = await this.read()
    const text = header(this.name, this.help, this.type)
    return value === undefined ? text : `${text}${this.name} ${value}\n`
  }
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${name} ${type}\n`
}

function labels(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return ''
  const pairs = names.map((name, index) => `${name}="${escapeValue(values[index] ?? '')}"`)
  return `{${pairs.join(',')}}`
}

const escapeValue = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
