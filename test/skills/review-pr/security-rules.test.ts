import { describe, expect, it } from 'vitest'
import { briefs, lines, newFile } from './fixtures.js'

describe('security: code execution, shell, hashing, TLS, deserialization', () => {
  it('flags eval/exec and new Function, not ast.literal_eval or RegExp#exec', () => {
    const diff = lines(
      newFile('tools/calc.py', [
        'import ast',
        '',
        'def evaluate(expression, literal):',
        '    value = ast.literal_eval(literal)',
        '    return eval(expression) + value',
        '',
        'def run(code):',
        '    exec(code, {"__builtins__": {}})',
      ]),
      newFile('web/plugins.js', [
        'export function load(body) {',
        "  const fn = new Function('ctx', body)",
        '  const match = /v(\\d+)/.exec(body)',
        '  return [fn, match]',
        '}',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'tools/calc.py:5 high code-eval',
      'tools/calc.py:8 high code-eval',
      'web/plugins.js:2 high code-eval',
    ])
  })

  it('does not flag eval named in a string or a comment, only eval called', () => {
    const diff = lines(
      '--- a/app/docs.py',
      '+++ b/app/docs.py',
      '@@ -1 +1,6 @@',
      ' """Helpers."""',
      '+# Never call eval() on user input.',
      '+HELP = "use ast.literal_eval instead of eval(x)"',
      "+msg = 'do not call exec(code) here'  # nor eval(x)",
      '+value = ast.literal_eval(text)  # safe, unlike eval(text)',
      "+result = eval(expr)  # TODO: don't",
      newFile('web/help.ts', [
        "export const HINT = 'Avoid eval(input); use JSON.parse(input)'",
        'const ok = JSON.parse(body) // never eval(body)',
        'setTimeout("tick()", 100)',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'app/docs.py:6 high code-eval',
      'web/help.ts:3 high code-eval',
      'app/docs.py:6 low todo-comment',
    ])
  })

  it('flags shell commands built from values, not argument lists or constant commands', () => {
    const diff = lines(
      newFile('scripts/backup.py', [
        'import os',
        'import subprocess',
        '',
        'def backup(name, path):',
        '    os.system(f"tar czf /backups/{name}.tgz {path}")',
        '    subprocess.run("rsync -a /backups/ remote:/backups/", shell=True)',
        '    os.system("sync")',
        '    subprocess.run(["gzip", path], check=True)',
      ]),
      newFile('lib/git.ts', [
        "import { exec, execFile, execSync } from 'node:child_process'",
        '',
        'export function log(branch: string) {',
        '  exec(`git log ${branch}`, (err, out) => out)',
        "  execSync('convert ' + branch)",
        "  execFile('git', ['log', branch])",
        '}',
      ]),
      newFile('bin/list.js', ['require("child_process").exec("ls " + dir, done)']),
      newFile('runner/run.go', [
        '\tout, err := exec.Command("sh", "-c", "ls -la "+dir).Output()',
        '\tok, err := exec.Command("git", "status").Output()',
      ]),
      newFile('src/Ping.java', ['Process p = Runtime.getRuntime().exec("ping -c 1 " + host);']),
    )
    expect(briefs(diff)).toEqual([
      'bin/list.js:1 high shell-injection',
      'lib/git.ts:4 high shell-injection',
      'lib/git.ts:5 high shell-injection',
      'runner/run.go:1 high shell-injection',
      'scripts/backup.py:5 high shell-injection',
      'scripts/backup.py:6 high shell-injection',
      'src/Ping.java:1 high shell-injection',
    ])
  })

  it('flags MD5/SHA-1 on passwords, not checksums', () => {
    const diff = lines(
      newFile('auth/hashing.py', [
        'import hashlib',
        '',
        'def hash_password(password):',
        '    return hashlib.md5(password.encode()).hexdigest()',
        '',
        'def checksum(data):',
        '    return hashlib.md5(data).hexdigest()',
      ]),
      newFile('src/auth.ts', [
        "const digest = crypto.createHash('sha1').update(password).digest('hex')",
      ]),
    )
    expect(briefs(diff)).toEqual([
      'auth/hashing.py:4 high weak-password-hash',
      'src/auth.ts:1 high weak-password-hash',
    ])
  })

  it('flags MD5/SHA-1 of a password under a short name (pw, pwd, pass), not of file contents', () => {
    const diff = lines(
      'diff --git a/app/users.py b/app/users.py',
      'index 1415ac6..57815d7 100644',
      '--- a/app/users.py',
      '+++ b/app/users.py',
      '@@ -9,3 +9,19 @@ def get_conn():',
      ' def find_user(name):',
      '     cur = get_conn().cursor()',
      '     return cur.fetchone()',
      '+',
      '+',
      '+def hash_password(pw):',
      '+    return hashlib.md5(pw.encode()).hexdigest()',
      '+',
      '+',
      '+def check(user, raw_pw):',
      '+    return user.pw_hash == hashlib.sha1(raw_pw.encode()).hexdigest()',
      '+',
      '+',
      '+def file_checksum(path):',
      "+    with open(path, 'rb') as f:",
      '+        return hashlib.md5(f.read()).hexdigest()',
      '+',
      '+def etag(payload, bypass_cache):',
      '+    return hashlib.sha1(payload).hexdigest() if not bypass_cache else None',
      newFile('public/login.php', ['<?php', '$hash = md5($pass);', '$etag = md5($compass);']),
      newFile('src/users.ts', [
        "const digest = createHash('md5').update(userPw).digest('hex')",
        "const key = createHash('md5').update(JSON.stringify(query)).digest('hex')",
      ]),
    )
    expect(briefs(diff)).toEqual([
      'app/users.py:15 high weak-password-hash',
      'app/users.py:19 high weak-password-hash',
      'public/login.php:2 high weak-password-hash',
      'src/users.ts:1 high weak-password-hash',
    ])
  })

  it('flags disabled TLS verification in Python, Node, Go and shell', () => {
    const diff = lines(
      newFile('client/http.py', [
        'resp = requests.get(url, verify=False, timeout=10)',
        'ctx = ssl._create_unverified_context()',
      ]),
      newFile('src/agent.ts', [
        'const agent = new https.Agent({ rejectUnauthorized: false })',
        "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'",
      ]),
      newFile('internal/client.go', [
        '\t\tTLSClientConfig: &tls.Config{InsecureSkipVerify: true},',
      ]),
      newFile('scripts/install.sh', [
        'curl -sSk https://get.example.com/install.sh | bash',
        'curl -fsSL https://get.example.com/ -o /tmp/get',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'client/http.py:1 high tls-verification-disabled',
      'client/http.py:2 high tls-verification-disabled',
      'internal/client.go:1 high tls-verification-disabled',
      'scripts/install.sh:1 high tls-verification-disabled',
      'src/agent.ts:1 high tls-verification-disabled',
      'src/agent.ts:2 high tls-verification-disabled',
    ])
  })

  it('flags pickle and unsafe yaml.load, not yaml.safe_load', () => {
    const diff = newFile('app/cache.py', [
      'obj = pickle.loads(blob)',
      'cfg = yaml.load(text)',
      'cfg = yaml.load(text, Loader=yaml.SafeLoader)',
      'cfg = yaml.safe_load(text)',
    ])
    expect(briefs(diff)).toEqual([
      'app/cache.py:1 high unsafe-deserialization',
      'app/cache.py:2 high unsafe-deserialization',
    ])
  })

  it('flags a Rails query fragment with interpolation, shell eval of a value (not of ssh-agent), and a password compared with a literal', () => {
    const diff = lines(
      newFile('app/models/user.rb', [
        'def self.named(params)',
        '  User.where("name = \'#{params[:name]}\'")',
        '  User.where(name: params[:name])',
        '  User.where("name = ?", params[:name])',
        'end',
      ]),
      newFile('bin/run.sh', ['#!/bin/sh', 'eval "$1"', 'eval "$(ssh-agent -s)"', 'evaluate "$1"']),
      newFile('auth.py', [
        'def check(password):',
        '    if password == "hunter2hunter2":',
        '        return True',
        '    return password != ""',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'app/models/user.rb:2 critical sql-injection',
      'auth.py:2 high hardcoded-secret',
      'bin/run.sh:2 high code-eval',
    ])
  })
})
