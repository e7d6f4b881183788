import { describe, expect, it } from 'vitest'
import { parseDiff } from '../../../src/skills/review-pr/diff.js'
import {
  languageFromText,
  normalizeLanguage,
} from '../../../src/skills/review-pr/language-names.js'
import { classifyPath, languageNeeded } from '../../../src/skills/review-pr/languages.js'
import { briefs, lines, newFile } from './fixtures.js'

describe('classifyPath', () => {
  it.each([
    ['app/models/user.py', { kind: 'code', language: 'python' }],
    ['web/index.mjs', { kind: 'code', language: 'javascript' }],
    ['web/App.tsx', { kind: 'code', language: 'typescript' }],
    ['web/App.jsx', { kind: 'code', language: 'javascript' }],
    ['cmd/main.go', { kind: 'code', language: 'go' }],
    ['src/Main.kt', { kind: 'code', language: 'kotlin' }],
    ['scripts/deploy.sh', { kind: 'code', language: 'shell' }],
    ['db/001_init.sql', { kind: 'code', language: 'sql' }],
    ['README.md', { kind: 'text' }],
    ['.github/workflows/ci.yml', { kind: 'text' }],
    ['Dockerfile', { kind: 'text' }],
    ['bin/cleanup', { kind: 'unknown' }],
    ['data/blob.xyz', { kind: 'unknown' }],
  ])('%s', (path, expected) => {
    expect(classifyPath(path)).toEqual(expected)
  })
})

describe('languageNeeded', () => {
  const script = newFile('bin/cleanup', ['rm -rf "$TARGET"'])

  it('is needed only when no changed file with code can be placed', () => {
    expect(languageNeeded(parseDiff(script))).toBe(true)
    expect(languageNeeded(parseDiff(script), 'shell')).toBe(false)
    expect(languageNeeded(parseDiff(lines(script, newFile('app/x.py', ['x = 1']))))).toBe(false)
    expect(languageNeeded(parseDiff(newFile('bin/cleanup', ['#!/bin/bash', 'rm -rf "$T"'])))).toBe(
      false,
    )
  })

  it('is not needed for documentation or config only', () => {
    expect(languageNeeded(parseDiff(newFile('docs/guide.md', ['# Guide'])))).toBe(false)
  })
})

describe('normalizeLanguage', () => {
  it('accepts names and common aliases in any case', () => {
    expect(
      ['Python', 'py', 'JS', 'node', 'TS', 'golang', 'C#', 'c++', 'bash'].map(normalizeLanguage),
    ).toEqual([
      'python',
      'python',
      'javascript',
      'javascript',
      'typescript',
      'go',
      'csharp',
      'cpp',
      'shell',
    ])
    expect(normalizeLanguage('COBOL')).toBeUndefined()
  })
})

describe('languageFromText', () => {
  it.each([
    ['python', 'python'],
    ["It's Python.", 'python'],
    ['TypeScript (tsx)', 'typescript'],
    ['Review this Python PR for security vulnerabilities', 'python'],
    ['go', 'go'],
    ["It's Go, thanks!", 'go'],
    ['Review this Go PR', 'go'],
    ['written in C', 'c'],
    ['Go ahead and review it', undefined],
    ["Let's go with Python", 'python'],
    ['Python or JavaScript?', undefined],
    ['no idea, sorry', undefined],
    ['Can you review my PR?', undefined],
  ])('%j → %s', (text, expected) => {
    expect(languageFromText(text)).toBe(expected)
  })
})

describe('rules by language', () => {
  const SCRIPT = ['import os', 'os.system(f"rm -rf {target}")']

  it('uses the language given for files it cannot place, and only language-free rules otherwise', () => {
    const diff = newFile('bin/cleanup', SCRIPT)
    expect(briefs(diff, { language: 'python' })).toEqual(['bin/cleanup:2 high shell-injection'])
    expect(briefs(diff)).toEqual([])
  })

  it('reads the language of an extensionless script from its shebang', () => {
    const diff = newFile('bin/cleanup', ['#!/usr/bin/env python3', ...SCRIPT])
    expect(briefs(diff)).toEqual(['bin/cleanup:3 high shell-injection'])
  })

  it('prefers the extension over the language given', () => {
    const diff = newFile('web/app.js', ['console.log(x)'])
    expect(briefs(diff, { language: 'python' })).toEqual(['web/app.js:1 low debug-output'])
  })
})
