import { describe, expect, it } from 'vitest'
import { briefs, lines, newFile } from './fixtures.js'

describe('style, bugs and performance', () => {
  const STYLE = lines(
    newFile('src/cart.ts', [
      'export function total(items: Item[]): number {',
      "  console.log('items', items)",
      '  debugger',
      '  // TODO: apply discounts',
      '  return items.reduce((sum, item) => sum + item.price, 0)',
      '}',
    ]),
    newFile('app/report.py', [
      'def report(rows):',
      '    print(rows)',
      '    breakpoint()',
      '    # FIXME: handle empty rows',
      '    return len(rows)',
    ]),
  )

  it('flags leftover debug output, breakpoints and TODOs', () => {
    expect(briefs(STYLE)).toEqual([
      'app/report.py:3 medium debugger-statement',
      'src/cart.ts:3 medium debugger-statement',
      'app/report.py:2 low debug-output',
      'app/report.py:4 low todo-comment',
      'src/cart.ts:2 low debug-output',
      'src/cart.ts:4 low todo-comment',
    ])
  })

  it('flags likely bugs in Python and TypeScript', () => {
    const diff = lines(
      newFile('app/service.py', [
        'def add_tag(tag, tags=[]):',
        '    tags.append(tag)',
        '    if tag == None:',
        '        return tags',
        '    try:',
        '        save(tags)',
        '    except:',
        '        log_error()',
        '    try:',
        '        notify(tags)',
        '    except ConnectionError: pass',
        '    return tags',
      ]),
      newFile('src/sync.ts', [
        'export async function syncAll(users: User[]) {',
        '  users.forEach(async (user) => {',
        '    try {',
        '      await sync(user)',
        '    } catch (e) {}',
        '  })',
        '}',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'app/service.py:1 medium mutable-default-argument',
      'app/service.py:7 medium bare-except',
      'app/service.py:11 medium empty-catch',
      'src/sync.ts:2 medium async-foreach',
      'src/sync.ts:5 medium empty-catch',
      'app/service.py:3 low none-comparison',
    ])
  })

  it('flags performance smells, and a parameterized SELECT * is not an injection', () => {
    const diff = lines(
      newFile('app/stats.py', [
        'def load(cur, df, day):',
        '    cur.execute("SELECT * FROM users WHERE id = %s", (user_id,))',
        '    for _, row in df.iterrows():',
        '        handle(row)',
      ]),
      newFile('src/config.ts', [
        "import { readFileSync } from 'node:fs'",
        '',
        "const raw = readFileSync('config.json', 'utf8')",
        'export const defaults = JSON.parse(JSON.stringify(base))',
      ]),
    )
    expect(briefs(diff)).toEqual([
      'app/stats.py:2 low select-star',
      'app/stats.py:3 low dataframe-iterrows',
      'src/config.ts:3 low sync-fs-call',
      'src/config.ts:4 low json-deep-clone',
    ])
  })
})
