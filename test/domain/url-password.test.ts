import { describe, expect, it } from 'vitest'
import { withoutPassword } from '../../src/domain/url-password.js'

describe('withoutPassword', () => {
  it('masks the password of a URL, and leaves the rest as it was', () => {
    expect(withoutPassword('redis://default:hunter2@localhost:6379/0')).toBe(
      'redis://default:***@localhost:6379/0',
    )
    expect(withoutPassword('rediss://:hunter2@cache.internal')).toBe('rediss://:***@cache.internal')
  })

  it('masks a password typed without percent-encoding whole', () => {
    for (const password of ['hun@ter2', 'hun/ter2', 'hun?ter#2', 'hun:ter2']) {
      expect(withoutPassword(`redis://default:${password}@localhost:99999`)).toBe(
        'redis://default:***@localhost:99999',
      )
    }
  })

  it('leaves a URL without a password alone', () => {
    for (const url of ['redis://localhost:6379', 'redis://default@localhost', 'not a url']) {
      expect(withoutPassword(url)).toBe(url)
    }
  })
})
