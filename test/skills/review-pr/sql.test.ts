/**
 * SQL files and SQL in code: passwords given to database accounts (and the placeholders that
 * stand in for them), and DELETE/UPDATE statements that change every row.
 */
import { describe, expect, it } from 'vitest'
import { briefs, lines, newFile } from './fixtures.js'

describe('review-pr on SQL: account passwords', () => {
  it('flags passwords set by CREATE USER, GRANT … IDENTIFIED BY, ALTER USER, SET PASSWORD and CREATE ROLE', () => {
    const diff = lines(
      'diff --git a/db/migrations/0042_app_users.sql b/db/migrations/0042_app_users.sql',
      'index 5e1c2a7..b94d0f3 100644',
      '--- a/db/migrations/0042_app_users.sql',
      '+++ b/db/migrations/0042_app_users.sql',
      '@@ -1,3 +1,12 @@',
      ' -- Accounts for the reporting service',
      ' SELECT 1;',
      "+CREATE USER app WITH PASSWORD 'S3cr3t-Pr0d-2024';",
      "+GRANT ALL PRIVILEGES ON *.* TO 'app'@'%' IDENTIFIED BY 'S3cr3t-Pr0d-2024';",
      "+ALTER USER app PASSWORD 'S3cr3t-Pr0d-2024';",
      "+SET PASSWORD FOR 'report'@'localhost' = 'hunter2-report';",
      "+CREATE ROLE reporter LOGIN PASSWORD 'R3p0rt!ng';",
      "+ALTER USER 'etl'@'%' IDENTIFIED WITH mysql_native_password BY 'Etl-2024-pw';",
      '+CREATE USER legacy IDENTIFIED BY Tiger2024 ACCOUNT UNLOCK;',
      '+CREATE ROLE batch WITH',
      "+  LOGIN PASSWORD 'b4tch-j0bs'",
      "+  VALID UNTIL '2030-01-01';",
      ' COMMIT;',
    )
    expect(briefs(diff)).toEqual([
      'db/migrations/0042_app_users.sql:3 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:4 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:5 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:6 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:7 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:8 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:9 high hardcoded-secret',
      'db/migrations/0042_app_users.sql:11 high hardcoded-secret',
    ])
  })

  it('flags a password set by SQL inside program code', () => {
    const diff = newFile('scripts/bootstrap.py', [
      'def bootstrap(cur):',
      '    cur.execute("CREATE USER app WITH PASSWORD \'S3cr3t-Pr0d-2024\'")',
      '    cur.execute("ALTER ROLE app PASSWORD %s", (os.environ["APP_DB_PASSWORD"],))',
    ])
    expect(briefs(diff)).toEqual(['scripts/bootstrap.py:2 high hardcoded-secret'])
  })

  it('leaves bind variables, templates, empty strings, placeholders and hashes alone', () => {
    const diff = lines(
      newFile('db/setup.sql', [
        'CREATE USER app WITH PASSWORD :pw;',
        'ALTER USER app PASSWORD $1;',
        "CREATE USER app WITH PASSWORD '${APP_DB_PASSWORD}';",
        "ALTER USER app PASSWORD '';",
        "CREATE ROLE dev LOGIN PASSWORD 'changeme';",
        "GRANT SELECT ON reports.* TO 'ro'@'%' IDENTIFIED BY '<password>';",
        "ALTER ROLE app ENCRYPTED PASSWORD 'md5c4ca4238a0b923820dcc509a6f75849b';",
        "CREATE USER 'old'@'%' IDENTIFIED BY PASSWORD '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19';",
        'CREATE USER app IDENTIFIED BY &app_password;',
        'ALTER USER app WITH PASSWORD NULL;',
        "-- CREATE USER app WITH PASSWORD 'S3cr3t-Pr0d-2024';",
      ]),
      newFile('db/users.py', [
        'cur.execute(f"CREATE USER {name} WITH PASSWORD \'{password}\'")',
        'cur.execute("ALTER USER app IDENTIFIED BY %s", (password,))',
        'log.info("password for user %s changed", name)',
      ]),
    )
    expect(briefs(diff)).toEqual([])
  })
})

describe('review-pr on SQL: statements that change every row', () => {
  it('flags DELETE and UPDATE without WHERE in a migration, not those with one', () => {
    const diff = lines(
      'diff --git a/db/schema.sql b/db/schema.sql',
      'index 3a4b5c6..7d8e9f0 100644',
      '--- a/db/schema.sql',
      '+++ b/db/schema.sql',
      '@@ -4,4 +4,13 @@ CREATE TABLE users (',
      '   name text NOT NULL',
      ' );',
      ' ',
      '+DELETE FROM users;',
      "+UPDATE users SET name = 'x';",
      "+update accounts a set status = 'closed; for good';",
      '+DELETE FROM sessions WHERE expires_at < now();',
      "+UPDATE users SET name = 'y' WHERE id = 1;",
      "+UPDATE users SET note = 'no where; at all' WHERE id = 2;",
      '+DELETE FROM audit_log',
      "+  WHERE created_at < now() - interval '90 days';",
      '+SELECT count(*) FROM users;',
      ' COMMIT;',
    )
    expect(briefs(diff)).toEqual([
      'db/schema.sql:7 medium missing-where',
      'db/schema.sql:8 medium missing-where',
      'db/schema.sql:9 medium missing-where',
    ])
  })
})
