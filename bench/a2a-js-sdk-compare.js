/**
 * The A2A 1.0 scenarios of `npm run bench`, and how ours compares with the official SDK's server
 * (bench/a2a-js-sdk.js) on them. Target: ours serves at least 3× the SDK's requests/s at a lower
 * p99 latency, on each scenario.
 */
import { AUTH_HEADERS } from './auth.js'
import console from 'node:console'
import { randomUUID } from 'node:crypto'

export const SDK_SERVER = 'a2a-js-sdk'
export const A2A_CARD_PATH = '/.well-known/agent-card.json'
const JSON_RPC_PATH = '/a2a/jsonrpc'
/** Ours, started fresh for these scenarios (bench/run.js). */
export const OURS_A2A = 'ours-a2a'
export const SDK_RPS_TARGET = 3

const SEND_HEAD =
  '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"'
const SEND_TAIL = '","role":"ROLE_USER","parts":[{"text":"hello"}],"metadata":{"skillId":"echo"}}}}'

/** Scenarios that only a fresh ours and the SDK's server run (`servers`). */
export const A2A_SCENARIOS = [
  {
    name: `GET ${A2A_CARD_PATH} (A2A-Version: 1.0)`,
    servers: [OURS_A2A, SDK_SERVER],
    request: { method: 'GET', path: A2A_CARD_PATH, headers: { 'a2a-version': '1.0' } },
    verify: (body) => body.includes('"supportedInterfaces":['),
  },
  {
    name: 'POST /a2a/jsonrpc SendMessage 1.0 (echo)',
    servers: [OURS_A2A, SDK_SERVER],
    request: {
      method: 'POST',
      path: JSON_RPC_PATH,
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...AUTH_HEADERS },
      // A fresh messageId per request: a repeated one is a retry, answered from the store.
      setupRequest: (request) => ({ ...request, body: SEND_HEAD + randomUUID() + SEND_TAIL }),
    },
    verify: (body) => body.includes('"state":"TASK_STATE_COMPLETED"'),
  },
]

/** Whether `entry` (a server) runs `scenario`: named ones only where named; the rest everywhere but on A2A-only servers. */
export const runsOn = (scenario, entry) =>
  scenario.servers ? scenario.servers.includes(entry.name) : !entry.a2aOnly

/** Ours against the SDK's server, per scenario both ran. */
export function compareWithSdk(results) {
  const rows = []
  for (const scenario of A2A_SCENARIOS) {
    const ours = results.find((r) => r.scenario === scenario.name && r.server === OURS_A2A)
    const sdk = results.find((r) => r.scenario === scenario.name && r.server === SDK_SERVER)
    if (!ours || !sdk) continue
    const ratio = sdk.rps > 0 ? ours.rps / sdk.rps : NaN
    rows.push({
      scenario: scenario.name,
      ratio,
      oursP99: ours.p99,
      sdkP99: sdk.p99,
      targetMet: ratio >= SDK_RPS_TARGET && ours.p99 < sdk.p99,
    })
  }
  return rows
}

export function printSdkComparison(rows) {
  console.log(
    `ours vs the @a2a-js/sdk server, in the same round, median over the rounds ` +
      `(target: >= ${SDK_RPS_TARGET}x its req/s, lower p99):`,
  )
  const width = Math.max(...rows.map((r) => r.scenario.length))
  for (const r of rows) {
    const verdict = r.targetMet ? 'target met' : 'TARGET MISSED'
    const rounds = r.ratioPerRound
      ? `  (${r.ratioPerRound.map((x) => `${x.toFixed(2)}x`).join(' ')})`
      : ''
    console.log(
      `  ${r.scenario.padEnd(width)}  ${r.ratio.toFixed(2).padStart(6)}x  ` +
        `p99 ${r.oursP99.toFixed(2)} ms vs ${r.sdkP99.toFixed(2)} ms  ${verdict}${rounds}`,
    )
  }
}
