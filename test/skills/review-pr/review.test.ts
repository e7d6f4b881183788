import { describe, expect, it } from 'vitest'
import { brief, briefs, lines, newFile, review } from './fixtures.js'

describe('security: sql-injection', () => {
  it('flags Python queries built with f-strings, % and + but not the parameterized one', () => {
    const diff = lines(
      'diff --git a/app/users.py b/app/users.py',
      'index 7c1d2e3..9f8a7b6 100644',
      '--- a/app/users.py',
      '+++ b/app/users.py',
      '@@ -10,5 +10,13 @@ from app.db import get_cursor',
      ' ',
      ' def find_by_name(name):',
      '     cur = get_cursor()',
      '-    cur.execute("SELECT id, name FROM users WHERE name = %s", (name,))',
      `+    cur.execute(f"SELECT id, name FROM users WHERE name = '{name}'")`,
      '     return cur.fetchall()',
      '+',
      '+',
      '+def find_by_email(email, user_id):',
      '+    cur = get_cursor()',
      `+    query = "SELECT id FROM users WHERE email = '%s'" % email`,
      '+    cur.execute(query)',
      '+    cur.execute("DELETE FROM sessions WHERE user_id = " + str(user_id))',
      '+    return cur.fetchone()',
    )
    const findings = review(diff)
    expect(findings.map(brief)).toEqual([
      'app/users.py:13 critical sql-injection',
      'app/users.py:19 critical sql-injection',
      'app/users.py:21 critical sql-injection',
    ])
    expect(findings[0]).toMatchObject({
      category: 'security',
      issue: 'SQL query built from values by string interpolation or concatenation',
    })
    expect(findings[0]?.recommendation).toMatch(/bound parameters/)
  })

  it('flags template literals, concatenation, Sprintf and interpolating strings in other languages', () => {
    const diff = lines(
      newFile('api/orders.ts', [
        "import { pool } from './db.js'",
        '',
        'export async function ordersFor(customerId: string) {',
        "  const { rows } = await pool.query(`SELECT id, total FROM orders WHERE customer_id = '${customerId}'`)",
        '  return rows',
        '}',
      ]),
      newFile('src/main/java/app/UserDao.java', [
        '    String sql = "SELECT name FROM users WHERE id = " + request.getParameter("id");',
        '    ResultSet rs = stmt.executeQuery(sql);',
      ]),
      newFile('store/users.go', [
        `\tquery := fmt.Sprintf("SELECT name FROM users WHERE id = '%s'", id)`,
        '\trows, err := db.Query(query)',
      ]),
      newFile('app/models/user.rb', [
        `    User.find_by_sql("SELECT * FROM users WHERE name = '#{name}'")`,
      ]),
      newFile('Data/Carts.cs', [
        '        var cmd = new SqlCommand($"DELETE FROM carts WHERE id = {cartId}", conn);',
      ]),
      newFile('public/db.php', [
        '$result = mysqli_query($conn, "SELECT email FROM users WHERE id = $id");',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'Data/Carts.cs:1 critical sql-injection',
      'api/orders.ts:4 critical sql-injection',
      'app/models/user.rb:1 critical sql-injection',
      'public/db.php:1 critical sql-injection',
      'src/main/java/app/UserDao.java:1 critical sql-injection',
      'store/users.go:1 critical sql-injection',
      'app/models/user.rb:1 low select-star',
    ])
  })
})

describe('security: secrets', () => {
  it('flags real-looking secrets and known key shapes, not env lookups or placeholders', () => {
    const diff = newFile('config/settings.py', [
      'import os',
      '',
      'DEBUG = False',
      'DB_PASSWORD = "s3cr3t-Pa55w0rd!"',
      'AWS_ACCESS_KEY_ID = "AKIAZ3MPLQ7RT4XW2N6K"',
      'AWS_SECRET_ACCESS_KEY = os.environ["AWS_SECRET_ACCESS_KEY"]',
      'SLACK_BOT_TOKEN = "xoxb-2048-1234567890-AbCdEfGhIjKlMnOpQrSt"',
      'SMTP_PASSWORD = "changeme"',
      'REDIS_PASSWORD = ""',
      '# old key: AKIAQ4RT7YZX2MB6WN3P',
      '# password = "not-a-real-one"',
      'EXAMPLE_KEY_ID = "AKIAIOSFODNN7EXAMPLE"',
    ])
    expect(briefs(diff)).toEqual([
      'config/settings.py:5 critical committed-credential',
      'config/settings.py:7 critical committed-credential',
      'config/settings.py:10 critical committed-credential',
      'config/settings.py:4 high hardcoded-secret',
    ])
  })

  it('finds tokens and keys in TypeScript and in a committed private key file', () => {
    const diff = lines(
      newFile('src/github.ts', [
        "import { Octokit } from '@octokit/rest'",
        '',
        "const octokit = new Octokit({ auth: 'ghp_R8x2Lq9Zt4Vb7Nc1Md5Kf3Hg6Js0Pw8Ya2Eu' })",
        "const stripe = { apiKey: 'pk_9f8e7d6c5b4a' }",
        "export const token = process.env.GITHUB_TOKEN ?? ''",
        'class Vault {',
        "  #secret = 'Zq8!mW2#rT5v'",
        '}',
      ]),
      newFile('deploy/id_rsa.pem', [
        '-----BEGIN RSA PRIVATE KEY-----',
        'MIIEpAIBAAKCAQEA7xQ2mZ3kP9cWv1bN8sR4tY6uI0oL5hG7jF2dS9aK3eX1qW4z',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'deploy/id_rsa.pem:1 critical committed-credential',
      'src/github.ts:3 critical committed-credential',
      'src/github.ts:4 high hardcoded-secret',
      'src/github.ts:7 high hardcoded-secret',
    ])
  })
})

describe('clean code', () => {
  it('finds nothing in Python with parameterized queries and secrets from the environment', () => {
    const diff = newFile('app/repository.py', [
      'import hashlib',
      'import os',
      'import subprocess',
      '',
      'DB_PASSWORD = os.environ["DB_PASSWORD"]',
      'API_TOKEN = os.getenv("API_TOKEN", "")',
      'TOKEN_URL = "https://auth.example.com/oauth/token"',
      '',
      '',
      'def find_user(conn, user_id):',
      '    with conn.cursor() as cur:',
      '        cur.execute("SELECT id, name, email FROM users WHERE id = %s", (user_id,))',
      '        return cur.fetchone()',
      '',
      '',
      'def search(conn, term):',
      '    with conn.cursor() as cur:',
      '        cur.execute(',
      '            "SELECT id, name FROM users WHERE name ILIKE %s ORDER BY name LIMIT %s",',
      '            ("%" + term + "%", 50),',
      '        )',
      '        return cur.fetchall()',
      '',
      '',
      'def archive(path):',
      '    if path is None:',
      '        raise ValueError("path is required")',
      '    subprocess.run(["tar", "czf", path + ".tgz", path], check=True)',
      '    logger.info("archived %s for password reset", path)',
      '    return hashlib.sha256(path.encode()).hexdigest()',
    ])
    expect(review(diff)).toEqual([])
  })

  it('finds nothing in TypeScript using pg with $1 placeholders', () => {
    const diff = newFile('src/orders/repository.ts', [
      "import { Pool } from 'pg'",
      "import { sql } from './sql.js'",
      '',
      'const pool = new Pool({ connectionString: process.env.DATABASE_URL })',
      'export const apiKey = process.env.API_KEY ?? ""',
      '',
      'export async function findOrder(id: string): Promise<Order | undefined> {',
      "  const { rows } = await pool.query<Order>('SELECT id, total FROM orders WHERE id = $1', [id])",
      '  return rows[0]',
      '}',
      '',
      'export async function renameUser(id: string, name: string): Promise<void> {',
      '  await pool.query(`UPDATE users SET name = $1 WHERE id = $2`, [name, id])',
      '  await pool.query(sql`DELETE FROM sessions WHERE user_id = ${id}`)',
      '}',
      '',
      'export function version(tag: string): number | undefined {',
      '  const match = /^v(\\d+)$/.exec(tag)',
      '  const copy = structuredClone({ tag })',
      '  return match ? Number(match[1]) + copy.tag.length : undefined',
      '}',
    ])
    expect(review(diff)).toEqual([])
  })

  it('finds nothing in idiomatic Go', () => {
    const diff = newFile('store/users.go', [
      'package store',
      '',
      'import (',
      '\t"context"',
      '\t"database/sql"',
      '\t"fmt"',
      '\t"os/exec"',
      ')',
      '',
      'func FindUser(ctx context.Context, db *sql.DB, id int64) (string, error) {',
      '\tvar name string',
      '\terr := db.QueryRowContext(ctx, "SELECT name FROM users WHERE id = $1", id).Scan(&name)',
      '\tif err != nil {',
      '\t\treturn "", fmt.Errorf("find user %d: %w", id, err)',
      '\t}',
      '\tfmt.Println("found", name)',
      '\treturn name, nil',
      '}',
      '',
      'func GitLog(branch string) ([]byte, error) {',
      '\treturn exec.Command("git", "log", "--oneline", branch).Output()',
      '}',
    ])
    expect(review(diff)).toEqual([])
  })

  it('ignores removed lines, deleted files and commented-out code', () => {
    const diff = lines(
      'diff --git a/app/db.py b/app/db.py',
      '--- a/app/db.py',
      '+++ b/app/db.py',
      '@@ -4,3 +4,3 @@ def find(cur, name):',
      '-    cur.execute(f"SELECT id FROM users WHERE name = \'{name}\'")',
      '+    # was: cur.execute(f"SELECT id FROM users WHERE name = \'{name}\'")',
      '+    cur.execute("SELECT id FROM users WHERE name = %s", (name,))',
      '     return cur.fetchone()',
      'diff --git a/old/legacy.js b/old/legacy.js',
      'deleted file mode 100644',
      '--- a/old/legacy.js',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-const x = eval(input)',
      '-module.exports = x',
    )
    expect(review(diff)).toEqual([])
  })
})

describe('focus', () => {
  const STYLE_AND_BUGS = newFile('src/cart.ts', [
    'export function total(items: Item[]): number {',
    "  console.log('items', items)",
    '  debugger',
    '  return items.reduce((sum, item) => sum + item.price, 0)',
    '}',
  ])

  it('runs only the focused categories', () => {
    expect(briefs(STYLE_AND_BUGS, { focus: ['security'] })).toEqual([])
    expect(briefs(STYLE_AND_BUGS, { focus: ['bugs'] })).toEqual([
      'src/cart.ts:3 medium debugger-statement',
    ])
    const mixed = newFile('app/db.py', [
      'print(f"SELECT id FROM t WHERE a = {a}")',
      'rows = cur.execute("SELECT * FROM t WHERE a = %s", (a,))',
    ])
    expect(briefs(mixed, { focus: ['security'] })).toEqual(['app/db.py:1 critical sql-injection'])
    expect(briefs(mixed, { focus: ['style', 'performance'] })).toEqual([
      'app/db.py:1 low debug-output',
      'app/db.py:2 low select-star',
    ])
  })
})
