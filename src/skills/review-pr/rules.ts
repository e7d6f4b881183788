/** The rule table: every rule the review runs, security first. */
import { qualityRules } from './quality-rules.js'
import type { Rule } from './rule.js'
import { securityRules } from './security-rules.js'

export const RULES: readonly Rule[] = [...securityRules, ...qualityRules]
