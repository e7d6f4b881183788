import { describe, expect, it } from 'vitest'
import { parseDiff } from '../../../src/skills/review-pr/diff.js'
import { lines, MISCOUNTED_HUNK } from './fixtures.js'

const MULTI_FILE = lines(
  'diff --git a/app/db.py b/app/db.py',
  'index 3b18e51..a9c2f4d 100644',
  '--- a/app/db.py',
  '+++ b/app/db.py',
  '@@ -1,6 +1,7 @@',
  ' import os',
  '+import logging',
  '', // an empty context line whose leading space an editor stripped
  ' from psycopg import connect',
  ' ',
  ' ',
  ' def get_conn():',
  '@@ -20,7 +21,9 @@ def get_conn():',
  ' def find_user(conn, user_id):',
  '     with conn.cursor() as cur:',
  '-        cur.execute("SELECT id, name FROM users WHERE id = " + user_id)',
  '+        cur.execute("SELECT id, name FROM users WHERE id = %s", (user_id,))',
  '+        row = cur.fetchone()',
  '-        return cur.fetchone()',
  '+        logging.info("found user %s", user_id)',
  '+        return row',
  ' ',
  ' ',
  ' def delete_user(conn, user_id):',
  'diff --git a/web/server.ts b/web/server.ts',
  'index 1111111..2222222 100644',
  '--- a/web/server.ts',
  '+++ b/web/server.ts',
  "@@ -10,3 +10,4 @@ import { app } from './app.js'",
  ' const port = Number(process.env.PORT ?? 3000)',
  "+const host = process.env.HOST ?? '0.0.0.0'",
  ' ',
  '-app.listen({ port })',
  '+app.listen({ port, host })',
  '',
)

describe('parseDiff', () => {
  it('numbers added lines in the new file across files and hunks', () => {
    expect(parseDiff(MULTI_FILE)).toEqual([
      {
        path: 'app/db.py',
        status: 'modified',
        binary: false,
        hunks: 2,
        added: [
          { line: 2, text: 'import logging' },
          {
            line: 23,
            text: '        cur.execute("SELECT id, name FROM users WHERE id = %s", (user_id,))',
          },
          { line: 24, text: '        row = cur.fetchone()' },
          { line: 25, text: '        logging.info("found user %s", user_id)' },
          { line: 26, text: '        return row' },
        ],
      },
      {
        path: 'web/server.ts',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [
          { line: 11, text: "const host = process.env.HOST ?? '0.0.0.0'" },
          { line: 13, text: 'app.listen({ port, host })' },
        ],
      },
    ])
  })

  it('reads a new file, a deleted file, a rename with changes and a pure rename', () => {
    const diff = lines(
      'diff --git a/scripts/seed.py b/scripts/seed.py',
      'new file mode 100644',
      'index 0000000..5d1c3e2',
      '--- /dev/null',
      '+++ b/scripts/seed.py',
      '@@ -0,0 +1,3 @@',
      '+import os',
      '+',
      '+print("seeding")',
      'diff --git a/old/legacy.js b/old/legacy.js',
      'deleted file mode 100644',
      'index 83db48f..0000000',
      '--- a/old/legacy.js',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-const x = eval(input)',
      '-module.exports = x',
      'diff --git a/src/util/format.ts b/src/text/format.ts',
      'similarity index 92%',
      'rename from src/util/format.ts',
      'rename to src/text/format.ts',
      'index 1234567..89abcde 100644',
      '--- a/src/util/format.ts',
      '+++ b/src/text/format.ts',
      '@@ -5,7 +5,7 @@ export function pad(s: string, n: number): string {',
      ' }',
      ' ',
      ' export function title(s: string): string {',
      '-  return s[0].toUpperCase() + s.slice(1)',
      '+  return s.charAt(0).toUpperCase() + s.slice(1)',
      ' }',
      ' ',
      ' export function trim(s: string): string {',
      'diff --git a/docs/old.md b/docs/new.md',
      'similarity index 100%',
      'rename from docs/old.md',
      'rename to docs/new.md',
      'diff --git a/assets/logo.png b/assets/logo.png',
      'index 5f4dcc3..e99a18c 100644',
      'Binary files a/assets/logo.png and b/assets/logo.png differ',
    )
    expect(parseDiff(diff)).toEqual([
      {
        path: 'scripts/seed.py',
        status: 'added',
        binary: false,
        hunks: 1,
        added: [
          { line: 1, text: 'import os' },
          { line: 2, text: '' },
          { line: 3, text: 'print("seeding")' },
        ],
      },
      { path: 'old/legacy.js', status: 'deleted', binary: false, hunks: 1, added: [] },
      {
        path: 'src/text/format.ts',
        oldPath: 'src/util/format.ts',
        status: 'renamed',
        binary: false,
        hunks: 1,
        added: [{ line: 8, text: '  return s.charAt(0).toUpperCase() + s.slice(1)' }],
      },
      {
        path: 'docs/new.md',
        oldPath: 'docs/old.md',
        status: 'renamed',
        binary: false,
        hunks: 0,
        added: [],
      },
      { path: 'assets/logo.png', status: 'modified', binary: true, hunks: 0, added: [] },
    ])
  })

  it('skips "no newline at end of file" markers inside and after a hunk', () => {
    const diff = lines(
      'diff --git a/config/settings.py b/config/settings.py',
      'index 4a5b6c7..8d9e0f1 100644',
      '--- a/config/settings.py',
      '+++ b/config/settings.py',
      '@@ -3,2 +3,2 @@ DEBUG = False',
      ' ALLOWED_HOSTS = ["example.com"]',
      '-TIMEOUT = 30',
      '\\ No newline at end of file',
      '+TIMEOUT = 60',
      '\\ No newline at end of file',
    )
    expect(parseDiff(diff)).toEqual([
      {
        path: 'config/settings.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 4, text: 'TIMEOUT = 60' }],
      },
    ])
  })

  it('defaults omitted hunk counts to 1', () => {
    const diff = lines(
      '--- a/VERSION',
      '+++ b/VERSION',
      '@@ -1 +1 @@',
      '-1.4.2',
      '+1.5.0',
      '--- a/CHANGELOG.md',
      '+++ b/CHANGELOG.md',
      '@@ -7 +7,3 @@ ## Unreleased',
      ' ## 1.4.2',
      '+',
      '+## 1.5.0',
    )
    const files = parseDiff(diff)
    expect(files.map((file) => [file.path, file.status, file.added])).toEqual([
      ['VERSION', 'modified', [{ line: 1, text: '1.5.0' }]],
      [
        'CHANGELOG.md',
        'modified',
        [
          { line: 8, text: '' },
          { line: 9, text: '## 1.5.0' },
        ],
      ],
    ])
  })

  it('uses hunk counts, not prefixes, so removed "-- " SQL comments and "++" lines stay content', () => {
    const diff = lines(
      'diff --git a/db/schema.sql b/db/schema.sql',
      '--- a/db/schema.sql',
      '+++ b/db/schema.sql',
      '@@ -1,3 +1,3 @@',
      '--- users table',
      '+++ counter',
      ' CREATE TABLE users (id bigint);',
      ' CREATE INDEX users_id ON users (id);',
    )
    expect(parseDiff(diff)).toEqual([
      {
        path: 'db/schema.sql',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 1, text: '++ counter' }],
      },
    ])
  })

  it('reads svn diffs and plain diff -u output with timestamps', () => {
    const svn = lines(
      'Index: src/main.rb',
      '===================================================================',
      '--- src/main.rb\t(revision 1234)',
      '+++ src/main.rb\t(working copy)',
      '@@ -4,2 +4,3 @@',
      ' def main',
      '+  puts "hi"',
      ' end',
    )
    const plain = lines(
      '--- lib/calc.go\t2024-05-01 10:00:00.000000000 +0200',
      '+++ lib/calc.go\t2024-05-02 11:30:00.000000000 +0200',
      '@@ -12,3 +12,3 @@ func Add(a, b int) int {',
      ' \treturn a + b',
      ' }',
      '-// end',
      '+// End of file.',
    )
    expect(parseDiff(svn)).toEqual([
      {
        path: 'src/main.rb',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 5, text: '  puts "hi"' }],
      },
    ])
    expect(parseDiff(plain)).toEqual([
      {
        path: 'lib/calc.go',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 14, text: '// End of file.' }],
      },
    ])
  })

  it('handles CRLF line endings, quoted paths and paths with spaces', () => {
    const diff = [
      'diff --git "a/docs/caf\\303\\251.py" "b/docs/caf\\303\\251.py"',
      '--- "a/docs/caf\\303\\251.py"',
      '+++ "b/docs/caf\\303\\251.py"',
      '@@ -1 +1,2 @@',
      ' x = 1',
      '+y = 2',
      'diff --git a/my dir/a b.txt b/my dir/a b.txt',
      'new file mode 100644',
      'index 0000000..e69de29',
    ].join('\r\n')
    expect(parseDiff(diff)).toEqual([
      {
        path: 'docs/café.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 2, text: 'y = 2' }],
      },
      { path: 'my dir/a b.txt', status: 'added', binary: false, hunks: 0, added: [] },
    ])
  })

  it('names a diff of bare hunks "(unnamed)"', () => {
    const files = parseDiff(lines('@@ -3,1 +3,2 @@', ' a = 1', '+b = eval(a)'))
    expect(files).toEqual([
      {
        path: '(unnamed)',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 4, text: 'b = eval(a)' }],
      },
    ])
  })

  it('reads the lines a hand-written hunk header leaves out, and counts them', () => {
    const diff = lines(
      MISCOUNTED_HUNK,
      '--- a/other.py',
      '+++ b/other.py',
      '@@ -1 +1 @@',
      '-a',
      '+b',
    )
    expect(parseDiff(diff)).toEqual([
      {
        path: 'x.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [
          { line: 2, text: 'eval(a)' },
          { line: 3, text: 'eval(b)' },
          { line: 5, text: 'os.system("rm " + p)' },
        ],
        uncounted: 3,
      },
      {
        path: 'other.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 1, text: 'b' }],
      },
    ])
  })

  it("strips git's mnemonic prefixes (diff.mnemonicPrefix) as it strips a/ and b/", () => {
    const diff = lines(
      'diff --git "c/caf\\303\\251.py" "i/caf\\303\\251.py"',
      'index 1111111..2222222 100644',
      '--- "c/caf\\303\\251.py"',
      '+++ "i/caf\\303\\251.py"',
      '@@ -1 +1,2 @@',
      ' a',
      '+eval(b)',
      'diff --git i/pkg new/mod new.py w/pkg new/mod new.py',
      '--- i/pkg new/mod new.py',
      '+++ w/pkg new/mod new.py',
      '@@ -1 +1 @@',
      '-x',
      '+y',
    )
    expect(parseDiff(diff)).toEqual([
      {
        path: 'café.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 2, text: 'eval(b)' }],
      },
      {
        path: 'pkg new/mod new.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 1, text: 'y' }],
      },
    ])
  })
})
