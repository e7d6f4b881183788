/**
 * Config files and prose: secrets written without quotes in .env, YAML, properties and
 * Dockerfiles; TLS switched off in PHP, Kubernetes and git settings; and words that only look
 * like secrets or SQL (labels, translations, log messages).
 */
import { describe, expect, it } from 'vitest'
import { briefs, lines, newFile } from './fixtures.js'

describe('review-pr on config files and prose', () => {
  it('flags secrets written without quotes in .env, YAML, properties and Dockerfiles', () => {
    const diff = lines(
      newFile('.env.production', [
        'DB_PASSWORD=Sup3rS3cretPw',
        'export API_TOKEN=tok3n4prod9xyz',
        'DB_HOST=db.internal',
        'ADMIN_PASSWORD=${ADMIN_PASSWORD}',
        'SMTP_PASSWORD=',
      ]),
      newFile('config.yml', [
        'db:',
        '  user: app',
        '  password: Pr0dPassw0rd42',
        '  password_file: /run/secrets/db',
        '  secret: !vault |',
        '  token: *shared_token',
      ]),
      newFile('app.properties', [
        'spring.datasource.password=S3cr3tPassw0rd',
        'spring.datasource.username=app',
      ]),
      newFile('Dockerfile', ['FROM node:20', 'ENV DB_PASSWORD=Sup3rS3cretPw', 'ARG NPM_TOKEN']),
    )
    expect(briefs(diff)).toEqual([
      '.env.production:1 high hardcoded-secret',
      '.env.production:2 high hardcoded-secret',
      'Dockerfile:2 high hardcoded-secret',
      'app.properties:1 high hardcoded-secret',
      'config.yml:3 high hardcoded-secret',
    ])
  })

  it('leaves labels and translations of the word "password" alone', () => {
    const diff = lines(
      newFile('locales/de.json', ['{', '  "password": "Passwort",', '  "token": "Schlüssel"', '}']),
      newFile('locales/es.yml', ['password: Contraseña', 'secret: Secreto']),
      newFile('src/ui.ts', [
        "const strings = { password: 'Password:', confirmPassword: 'Confirm password' }",
      ]),
      newFile('src/db.ts', ["const password = 'hunter2hunter2'"]),
    )
    expect(briefs(diff)).toEqual(['src/db.ts:1 high hardcoded-secret'])
  })

  it('takes a log message that says "update … set" for prose, not SQL', () => {
    const diff = lines(
      newFile('forms.py', [
        'log.info("Update config set by " + user)',
        'cursor.execute("UPDATE users SET name = \'" + name + "\' WHERE id = 1")',
        'cursor.execute("update users set email=\'" + email + "\'")',
        'cursor.execute("UPDATE users SET " + column + " = %s", (value,))',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'forms.py:2 critical sql-injection',
      'forms.py:3 critical sql-injection',
      'forms.py:4 critical sql-injection',
    ])
  })

  it('flags TLS verification switched off in PHP, Kubernetes and git settings', () => {
    const diff = lines(
      newFile('client.php', [
        '<?php',
        "$client = new \\GuzzleHttp\\Client(['verify' => false]);",
        "$ctx = stream_context_create(['ssl' => ['verify_peer' => false, 'verify_peer_name' => false]]);",
        "$ok = new \\GuzzleHttp\\Client(['verify' => '/etc/ssl/ca.pem']);",
      ]),
      newFile('kubeconfig.yaml', [
        'clusters:',
        '- cluster:',
        '    server: https://10.0.0.1:6443',
        '    insecure-skip-tls-verify: true',
      ]),
      newFile('run.sh', [
        'git -c http.sslVerify=false clone https://x/y',
        'export GIT_SSL_NO_VERIFY=1',
        'curl -fsSL https://example.com/x.tgz | tar -xzkf -',
        'curl -fsS https://example.com/ && make -k all',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'client.php:2 high tls-verification-disabled',
      'client.php:3 high tls-verification-disabled',
      'kubeconfig.yaml:4 high tls-verification-disabled',
      'run.sh:1 high tls-verification-disabled',
      'run.sh:2 high tls-verification-disabled',
    ])
  })
})
