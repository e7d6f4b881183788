/** The package's public API: build the server in your own process, and write skills for it. */
export { buildApp } from './app.js'
export type { AppOverrides } from './app.js'
export { callerClaims, signJwt } from './auth/jws.js'
export type { SignOptions } from './auth/jws.js'
export { ConfigError, configFrom, loadConfig } from './config.js'
export type { Config } from './config.js'
export type { Caller } from './domain/caller.js'
export { dataPart, textPart } from './domain/parts.js'
export type { MessageContent } from './domain/parts.js'
export type {
  Artifact,
  FileContent,
  Message,
  Part,
  Task,
  TaskState,
  TaskStatus,
} from './domain/model.js'
export { defineSkill } from './skills/skill.js'
export type {
  ArtifactInput,
  CanceledWait,
  ChunkOptions,
  JsonSchema,
  Skill,
  SkillCard,
  SkillContext,
  SkillData,
  SkillInput,
  SkillOutcome,
} from './skills/skill.js'
export type { EventLog } from './store/event-log.js'
export type { TaskPage, TaskQuery, TaskStore } from './store/task-store.js'
export * from './client/index.js'
export * from './registry/index.js'
export * from './orchestrator/index.js'
