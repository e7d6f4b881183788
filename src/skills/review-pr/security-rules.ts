/** Security rules. Each pattern aims at a line that is wrong as written, not merely suspicious. */
import { anyOf, inCode, perLanguage, type Rule } from './rule.js'
import { assignsSecret, containsCredential } from './secrets.js'
import { buildsSql } from './sql-injection.js'

/** A command argument that is there and is not one plain string literal (`"sync"`, `"ls", "w"`). */
const NOT_ONE_LITERAL = String.raw`(?!\))(?![rbuRBU]?(["'])(?:\\.|(?!\1).)*\1\s*[,)])`
const SH_DASH_C = String.raw`"(?:/(?:usr/)?bin/)?(?:ba|z)?sh"\s*,\s*"-c"\s*,\s*`

/** MD5/SHA-1 named as an algorithm or called: `hashlib.md5(`, `createHash('sha1')`, `md5Hex(`. */
const WEAK_HASH = /(?:\bmd5|\bsha-?1)(?:\s*\(|\.|Hex\b|['"])|['"](?:md5|sha-?1)['"]/i
/**
 * A password by name: `password`, `passwd`, `passphrase` anywhere (`hashPassword`), and the
 * short `pw`, `pwd`, `pass` as a whole part of a name (`pw`, `raw_pw`, `userPwd`, `$pass`, `DB_PW`),
 * not inside a word (`bypass`, `compass`). Tokens and secrets are random: a fast hash of them is
 * not the flaw this rule reports.
 */
const PASSWORD_NAME = [
  /passw(?:or)?d|passphrase/i,
  /(?<![A-Za-z0-9])(?:pw|pwd|pass)(?![a-z0-9])/,
  /(?<![A-Za-z0-9])(?:PW|PWD|PASS)(?![A-Za-z0-9])/,
  /(?<=[a-z0-9])(?:Pw|Pwd|Pass)(?![a-z0-9])/,
]

const JS_EVAL = [
  /(?<![\w$.])eval\s*\(/,
  /\bnew\s+Function\s*\(/,
  /\bset(?:Timeout|Interval)\s*\(\s*["'`]/,
]
/** child_process exec/execSync with a template or concatenated command (not RegExp#exec). */
const NODE_SHELL = [
  /(?:(?<![\w$.])|\b(?:child_process|childProcess|cp)\.|\brequire\(\s*["'](?:node:)?child_process["']\s*\)\.)exec(?:Sync)?\s*\(\s*(?:`[^`]*\$\{|(["'])(?:(?!\1).)*\1\s*\+|[\w$.]+\s*\+)/,
  /\bshell\s*:\s*true\b/,
]

export const securityRules: readonly Rule[] = [
  {
    id: 'sql-injection',
    category: 'security',
    severity: 'critical',
    languages: 'all',
    matches: buildsSql,
    issue: 'SQL query built from values by string interpolation or concatenation',
    recommendation:
      'Pass values as bound parameters (placeholders such as %s, ?, $1 or :name with a separate ' +
      'argument list) instead of formatting them into the SQL text',
  },
  {
    id: 'committed-credential',
    category: 'security',
    severity: 'critical',
    languages: 'all',
    includeComments: true,
    supersedes: ['hardcoded-secret'],
    matches: containsCredential,
    issue: 'A real credential (cloud key, private key or API token) is committed in the code',
    recommendation:
      'Revoke and rotate this credential now, remove it from the history, and load it from a ' +
      'secret manager or environment variable',
  },
  {
    id: 'hardcoded-secret',
    category: 'security',
    severity: 'high',
    languages: 'all',
    matches: assignsSecret,
    issue: 'Hard-coded password, secret or API key',
    recommendation:
      'Read the value from the environment or a secret manager at runtime and rotate the ' +
      'exposed one',
  },
  {
    id: 'code-eval',
    category: 'security',
    severity: 'high',
    // "use ast.literal_eval, not eval(x)": an eval named in a string or a comment runs nothing.
    ...inCode(
      perLanguage({
        python: [/(?<![\w.])(?:eval|exec)\s*\(/],
        javascript: JS_EVAL,
        typescript: JS_EVAL,
        ruby: [/(?<![\w.])eval[\s(]/],
        php: [/(?<![\w$>])eval\s*\(/, /\bcreate_function\s*\(/],
        // `eval "$1"`, `eval $cmd`: the shell runs whatever the value holds. (`eval "$(ssh-agent
        // -s)"` runs a known command's output: the usual idiom, not flagged.)
        shell: [/(?:^|[;&|(]\s*|\s)eval\s+["']?\$(?:\{|[\w@*])/],
      }),
      ['shell'],
    ),
    issue: 'Dynamic code execution (eval/exec) can run attacker-controlled code',
    recommendation:
      'Avoid evaluating strings as code; parse data with a real parser (json, ast.literal_eval) ' +
      'or dispatch through an explicit table of allowed operations',
  },
  {
    id: 'shell-injection',
    category: 'security',
    severity: 'high',
    ...perLanguage({
      python: [
        new RegExp(String.raw`\bos\.(?:system|popen)\s*\(\s*` + NOT_ONE_LITERAL),
        /\bshell\s*=\s*True\b/,
      ],
      javascript: NODE_SHELL,
      typescript: NODE_SHELL,
      go: [
        new RegExp(
          String.raw`\bexec\.Command(?:Context)?\(\s*(?:\w+\s*,\s*)?` + SH_DASH_C + NOT_ONE_LITERAL,
        ),
      ],
      java: [
        /\bRuntime\.getRuntime\(\)\.exec\s*\(.*\+/,
        new RegExp(String.raw`\bnew\s+ProcessBuilder\s*\(\s*` + SH_DASH_C + NOT_ONE_LITERAL),
      ],
      ruby: [/(?:\bsystem|\bexec|\bspawn|%x)\s*\(?\s*"[^"]*#\{/, /`[^`]*#\{/],
      php: [/\b(?:shell_exec|system|passthru|exec|popen|proc_open)\s*\([^)]*\$/],
    }),
    issue: 'Shell command built from values: shell injection',
    recommendation:
      'Run the program without a shell and pass arguments as a list (subprocess.run([...]), ' +
      'execFile/spawn with an args array, exec.Command(name, args...)); never interpolate input ' +
      'into a command line',
  },
  {
    id: 'weak-password-hash',
    category: 'security',
    severity: 'high',
    languages: 'all',
    // HMAC-MD5 (CRAM-MD5 logins) keys a MAC with the password; it does not store a hash of it.
    matches: (text) => WEAK_HASH.test(text) && anyOf(...PASSWORD_NAME)(text) && !/hmac/i.test(text),
    issue: 'Password hashed with MD5/SHA-1, which are fast and broken for this purpose',
    recommendation: 'Hash passwords with a slow, salted KDF: bcrypt, scrypt or Argon2',
  },
  {
    id: 'tls-verification-disabled',
    category: 'security',
    severity: 'high',
    languages: 'all',
    matches: anyOf(
      /\bverify\s*=\s*False\b/,
      /\bcheck_hostname\s*=\s*False\b/,
      /\brejectUnauthorized\s*:\s*false\b/,
      /\bNODE_TLS_REJECT_UNAUTHORIZED\b["'\]]*\s*[=:]\s*["']?0\b/,
      /\bInsecureSkipVerify\s*:\s*true\b/,
      /\bssl\._create_unverified_context\b/,
      // Set, not compared: `verify_mode != ssl.CERT_NONE` checks that verification is on.
      /(?<![=!<>])[=:]\s*[\w.:]*\b(?:CERT_NONE|VERIFY_NONE)\b/,
      /\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*(?:false|0)\b/,
      // PHP: Guzzle's `'verify' => false`, stream contexts' `'verify_peer' => false`.
      /['"]verify(?:_peer(?:_name)?)?['"]\s*=>\s*false\b/i,
      // Kubernetes (`insecure-skip-tls-verify: true`) and other configs' spellings.
      /\binsecure[-_]?skip[-_]?(?:tls[-_]?)?verify["']?\s*[:=]\s*["']?true\b/i,
      // git: `http.sslVerify=false`, `git config http.sslVerify false`, GIT_SSL_NO_VERIFY.
      /\bsslVerify["']?\s*(?:=|\s)\s*["']?false\b/i,
      /\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)\b/i,
      // curl's and wget's own options: up to the next `|`, `;` or `&` (tar -k, make -k are not).
      /\bcurl\b[^|;&]*\s(?:-[a-zA-Z]*k[a-zA-Z]*|--insecure)(?=\s|$|["'`])/,
      /\bwget\b[^|;&]*\s--no-check-certificate\b/,
    ),
    issue: 'TLS certificate verification is disabled, allowing man-in-the-middle attacks',
    recommendation:
      'Keep certificate verification on; to trust a private CA, point the client at its ' +
      'certificate bundle instead',
  },
  {
    id: 'unsafe-deserialization',
    category: 'security',
    severity: 'high',
    ...perLanguage({
      python: [
        /\b(?:c?[Pp]ickle|dill)\.loads?\s*\(/,
        /\byaml\.load\s*\((?!.*Loader\s*=\s*(?:yaml\.)?C?SafeLoader)/,
        /\byaml\.unsafe_load\s*\(/,
      ],
      ruby: [/\bMarshal\.load\s*\(/],
      php: [/\bunserialize\s*\(\s*\$_(?:GET|POST|REQUEST|COOKIE)/],
    }),
    issue: 'Deserializing with a format that can construct arbitrary objects (code execution)',
    recommendation:
      'Use a data-only format (JSON) or a safe loader such as yaml.safe_load; never unpickle ' +
      'untrusted bytes',
  },
]
