/**
 * @nvcf/client: typed operations for every query and mutation of the public API (generated from
 * the schema by `npm run codegen`), a client that sends them by trusted-document id, and a status
 * watch that resumes from its cursor by itself. docs/client.md.
 */
export { createClient } from './client.js';
export type { ClientOptions, NvcfClient, VariablesArg, UntypedData } from './client.js';
export { NvcfError, isTransient } from './errors.js';
export type { GraphQLErrorShape } from './errors.js';
export type {
  StatusEvent,
  WatchFilter,
  WatchItem,
  WatchOptions,
  ResumeItem,
  TaskEvent,
  TaskWatchFilter,
  TaskWatchItem,
} from './watch.js';
export { applyListedInstances, applyStatusEvent, cursorSequence } from './rollout.js';
export type { ClusterRef, FoldableStatusEvent, ListedInstance, RolloutInstance } from './rollout.js';
export { TASK_STATUSES, TASK_TERMINAL_STATUSES, taskEnded } from './tasks.js';
export type { DocumentMode } from './request.js';
export { documentIdOf } from './request.js';
export { readSse } from './sse-parse.js';
export type { SseMessage } from './sse-parse.js';
export * from './generated/graphql.js';
