/** The exposition text the metric families render, as Prometheus parses it. */
import { describe, expect, it } from 'vitest'
import { CounterFamily, GaugeFamily, HistogramFamily } from '../../src/metrics/families.js'

describe('metric families', () => {
  it('render a counter per label values, escaping backslashes, quotes and newlines', () => {
    const counter = new CounterFamily('a2a_things_total', 'Things\nby kind', ['kind'])
    counter.inc(['plain'])
    counter.inc(['plain'], 2)
    counter.inc(['say "hi"\\\n'])
    expect(counter.render()).toBe(
      [
        '# HELP a2a_things_total Things\\nby kind',
        '# TYPE a2a_things_total counter',
        'a2a_things_total{kind="plain"} 3',
        'a2a_things_total{kind="say \\"hi\\"\\\\\\n"} 1',
        '',
      ].join('\n'),
    )
  })

  it('render an unlabelled counter at 0 before its first count', () => {
    expect(new CounterFamily('a2a_none_total', 'None').render()).toContain('\na2a_none_total 0\n')
  })

  it('render a histogram with cumulative buckets, +Inf, sum and count', () => {
    const histogram = new HistogramFamily('a2a_wait_seconds', 'Waits', ['route'], [0.1, 1])
    for (const seconds of [0.05, 0.1, 0.5, 3]) histogram.observe(['/a'], seconds)
    expect(histogram.render()).toBe(
      [
        '# HELP a2a_wait_seconds Waits',
        '# TYPE a2a_wait_seconds histogram',
        'a2a_wait_seconds_bucket{route="/a",le="0.1"} 2',
        'a2a_wait_seconds_bucket{route="/a",le="1"} 3',
        'a2a_wait_seconds_bucket{route="/a",le="+Inf"} 4',
        'a2a_wait_seconds_sum{route="/a"} 3.65',
        'a2a_wait_seconds_count{route="/a"} 4',
        '',
      ].join('\n'),
    )
  })

  it('render a gauge read at scrape, and leave the sample out when it cannot be read', async () => {
    let value: number | undefined = 7
    const gauge = new GaugeFamily('a2a_depth', 'Depth', () => value)
    expect(await gauge.render()).toBe(
      '# HELP a2a_depth Depth\n# TYPE a2a_depth gauge\na2a_depth 7\n',
    )
    value = undefined
    expect(await gauge.render()).toBe('# HELP a2a_depth Depth\n# TYPE a2a_depth gauge\n')
  })
})
