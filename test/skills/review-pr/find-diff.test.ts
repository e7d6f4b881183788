import { describe, expect, it } from 'vitest'
import { findDiff } from '../../../src/skills/review-pr/find-diff.js'
import { lines, newFile } from './fixtures.js'

const TWO_FILES = lines(
  newFile('app/db.py', ['import os']),
  newFile('web/server.ts', ['export {}']),
)

describe('findDiff', () => {
  it('takes the diff from its first header line, after prose and a code fence', () => {
    const found = findDiff(
      lines('Please review this change --- it is small:', '', '```diff', TWO_FILES, '```'),
    )
    expect(found?.prose).toBe(lines('Please review this change --- it is small:', '', '```diff'))
    expect(found?.files.map((file) => file.path)).toEqual(['app/db.py', 'web/server.ts'])
  })

  it('skips a prose line that only looks like a header', () => {
    const found = findDiff(
      lines('Index: notes below', '', 'diff --git a/x.py b/x.py', '@@ -1 +1 @@', '-a', '+b'),
    )
    expect(found?.prose).toBe(lines('Index: notes below', ''))
    expect(found?.files).toEqual([
      {
        path: 'x.py',
        status: 'modified',
        binary: false,
        hunks: 1,
        added: [{ line: 1, text: 'b' }],
      },
    ])
  })

  it('finds nothing in plain prose or bare hunks without headers', () => {
    expect(findDiff('Can you review my PR? It fixes the login bug.')).toBeUndefined()
    expect(findDiff(lines('@@ -1 +1 @@', '-a', '+b'))).toBeUndefined()
  })
})
