/**
 * Credentials written into the code. Two kinds: values whose own shape gives them away (AWS key
 * ids, PEM private keys, GitHub/Slack/Stripe/Google tokens) — certain wherever they appear — and
 * string literals assigned to something named like a secret, where the value must look real:
 * environment lookups are not literals, and empty strings, placeholders, paths, env-var names,
 * labels and prose are not secrets. Config files (.env, YAML, properties, Dockerfiles) write
 * values without quotes; those count too. So do SQL statements that give an account a password.
 */
import type { Language } from './languages.js'

const TOKEN_SHAPES = [
  /\bAKIA[0-9A-Z]{16}\b/,
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b/,
  /\bgithub_pat_[A-Za-z0-9_]{22,}/,
  /\bxox[abposr]-[0-9A-Za-z-]{10,}/,
  /\b[sr]k_live_[0-9A-Za-z]{16,}/,
  /\bAIza[0-9A-Za-z_-]{35}\b/,
]

/** AWS documents its examples with keys ending in EXAMPLE; they are meant to be copied. */
const DOCUMENTED_EXAMPLE = /\bAKIA[0-9A-Z]{9}EXAMPLE\b/

export function containsCredential(text: string): boolean {
  const line = text.replace(DOCUMENTED_EXAMPLE, '')
  return TOKEN_SHAPES.some((shape) => shape.test(line))
}

/**
 * `name = "value"`, `name: "value"` (objects, YAML), `name := "value"` (Go), `name => 'value'`,
 * `name: str = "value"` (annotated), `config["name"] = "value"`; never `==` comparisons.
 */
const ASSIGNMENT =
  /([A-Za-z_$][\w$-]*)["']?\]?\s*(?::\s*[A-Za-z_][\w.[\]|]*\s*(?==)|)(?:=>|:=|=(?!=)|:)\s*[rbuRBU]?(["'`])((?:\\.|(?!\2).)*)\2/g

/** The name ends in a secret-ish word: `db_password`, `apiKey`, `CLIENT_SECRET`, `authToken`. */
const SECRET_NAME =
  /(?:password|passwd|passphrase|pwd|secret|(?:api|access|secret|private)[_-]?key|token|credentials?)$/i

const PLACEHOLDER =
  /^(?:x+|\*+|\.+|-+|<[^>]*>|\{\{.*\}\}|\$\{.*\}|\$[A-Z_]+|%\(.*\)s|%s|changeme|change_me|changeit|password|passwd|secret|token|apikey|api_key|dummy|example|sample|placeholder|redacted|none|null|undefined|todo|fixme|your[-_ ].*|.*[-_]here)$/i

/**
 * A config line's `NAME=value` (.env, properties, shell `export`, Dockerfile `ENV`/`ARG`) or
 * YAML `name: value`, the value unquoted, as config files write it. Read only outside program
 * code (files of no language) and in shell, where a bare word is a value, not a variable.
 */
const CONFIG_ASSIGNMENT =
  /^\s*(?:export\s+|(?:ENV|ARG)\s+)?([A-Za-z_][\w.-]*)\s*(?:=|:(?=\s))\s*([^\s'"`].*?)\s*$/
/** Dockerfile's older `ENV NAME value`. */
const DOCKER_ENV = /^\s*ENV\s+([A-Za-z_][\w.-]*)\s+([^\s=]\S*)\s*$/
/** YAML tags, aliases, anchors and block markers, and `#` comments: no value of their own. */
const NOT_A_VALUE = /^[!*&|>{[#]/

/** `password == "hunter2"`: a secret compared with a literal is written into the code too. */
const COMPARISON = /([A-Za-z_$][\w$]*)\s*(?:===?|!==?)\s*[rbuRBU]?(["'`])((?:\\.|(?!\2).)*)\2/g

/** A quoted SQL string: group 1 is the quote, group 2 the value. */
const SQL_STRING = String.raw`(['"])((?:\\.|(?!\1).)*)\1`

/**
 * SQL that gives an account a password, the value in group 2: `CREATE USER app WITH PASSWORD
 * '…'`, `ALTER ROLE app LOGIN PASSWORD '…'` (or that clause on a line of its own), `SET PASSWORD
 * FOR app = '…'`, `GRANT … IDENTIFIED BY '…'` (Oracle's unquoted too). MySQL's `IDENTIFIED BY
 * PASSWORD '*…'` and Oracle's `IDENTIFIED BY VALUES '…'` give a hash, not the password. Bind
 * variables (`:pw`, `$1`, `?`) are not strings; `PASSWORD = '…'` is an assignment, read above.
 */
const SQL_PASSWORD = [
  String.raw`\b(?:USER|ROLE)\b[^;]*?(?<!\bBY\s+)\bPASSWORD\s+` + SQL_STRING,
  String.raw`^\s*(?:(?:WITH|LOGIN|ENCRYPTED|UNENCRYPTED)\s+)*PASSWORD\s+` + SQL_STRING,
  String.raw`\bSET\s+PASSWORD\b[^=;]*=\s*(?:PASSWORD\s*\(\s*)?` + SQL_STRING,
  String.raw`\bIDENTIFIED\s+(?:WITH\s+\S+\s+)?BY\s+(?!(?:PASSWORD|VALUES)\b)` + SQL_STRING,
  String.raw`\bIDENTIFIED\s+(?:WITH\s+\S+\s+)?BY\s+(?!(?:PASSWORD|VALUES)\b)()([^\s;:$&?@'"][^\s;'"),]*)`,
].map((source) => new RegExp(source, 'i'))

export function assignsSecret(text: string, language?: Language): boolean {
  for (const match of [...text.matchAll(ASSIGNMENT), ...text.matchAll(COMPARISON)]) {
    const [, name = '', , value = ''] = match
    if (SECRET_NAME.test(name) && looksReal(value, name)) return true
  }
  for (const pattern of SQL_PASSWORD) {
    const value = pattern.exec(text)?.[2]
    if (value !== undefined && !HASHED.test(value) && looksReal(value, 'password')) return true
  }
  if (language !== undefined && language !== 'shell') return false
  const config = CONFIG_ASSIGNMENT.exec(text) ?? DOCKER_ENV.exec(text)
  if (config === null) return false
  const [, name = '', written = ''] = config
  const value = written.replace(/\s+#.*$/, '')
  return SECRET_NAME.test(name) && !NOT_A_VALUE.test(value) && looksReal(value, name)
}

/** PostgreSQL takes a password already hashed (`md5…`, `SCRAM-SHA-256$…`): not the password. */
const HASHED = /^(?:md5[0-9a-f]{32}|SCRAM-SHA-256\$.*)$/

/** Names where a person picks the value; for tokens and keys ("Token", "sort_key") we want randomness. */
const CHOSEN_SECRET = /(?:password|passwd|passphrase|pwd|secret|credentials?)$/i

function looksReal(value: string, name: string): boolean {
  if (value.length < 6 || /\s/.test(value)) return false
  if (PLACEHOLDER.test(value)) return false
  if (/^[A-Z][A-Z0-9_]*$/.test(value)) return false // the NAME of an env var or setting
  if (/^(?:\/|\.\.?\/|~\/|https?:\/\/[^@]*$)/.test(value)) return false // a path or plain URL
  if (/^#[0-9a-f]{3,8}$/i.test(value)) return false // a colour (syntax-highlighting "Token" styles)
  if (/%[sd(]|\{\w*\}|\(\?|\\[dswbSWB]/.test(value)) return false // a format string or regex
  // A word, maybe with a colon: a label or its translation ("Passwort", "Password:"). A password
  // that is one plain word ("letmein") goes unnoticed: the price of quiet i18n reviews.
  if (CHOSEN_SECRET.test(name)) return /[A-Za-z0-9]/.test(value) && !/^\p{L}+:?$/u.test(value)
  return value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value)
}
