import { PoisonMessage } from '@nvcf/bus';
import type { InstanceState, StatusEvent } from './payloads.js';

const STATES: ReadonlySet<string> = new Set<InstanceState>(['STARTING', 'ACTIVE', 'UPDATING', 'FAILED', 'TERMINATED']);
const ID_FIELDS = ['instanceId', 'ncaId', 'functionId', 'versionId', 'gpuSpecificationId', 'clusterId'] as const;
const OPTIONAL_STRINGS = ['message', 'failedRevisionId', 'targetRevisionId'] as const;

/**
 * A status message as the readers may apply it, or a PoisonMessage naming what is wrong: an event
 * without an instance, a state or a clock would be stored half (or fail in the store on every
 * delivery), so it goes to the dead-letter stream at once, where an operator can fix and replay it.
 */
export function statusEventOf(data: unknown): StatusEvent {
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new PoisonMessage('not a status event: the payload is not an object');
  const e = data as Record<string, unknown>;
  const bad = (field: string, want: string) =>
    new PoisonMessage(`not a status event: ${field} must be ${want} (got ${JSON.stringify(e[field]) ?? 'nothing'})`);
  for (const f of ID_FIELDS) if (typeof e[f] !== 'string' || e[f] === '') throw bad(f, 'a non-empty string');
  if (typeof e.state !== 'string' || !STATES.has(e.state)) throw bad('state', `one of ${[...STATES].join(', ')}`);
  if (e.previousState != null && (typeof e.previousState !== 'string' || !STATES.has(e.previousState)))
    throw bad('previousState', 'a state or null');
  if (e.revisionId != null && typeof e.revisionId !== 'string') throw bad('revisionId', 'a string or null');
  if (typeof e.at !== 'string' || Number.isNaN(Date.parse(e.at))) throw bad('at', 'an ISO-8601 time');
  if (typeof e.clock !== 'number' || !Number.isSafeInteger(e.clock) || e.clock < 0)
    throw bad('clock', 'a non-negative integer');
  for (const f of OPTIONAL_STRINGS) if (e[f] != null && typeof e[f] !== 'string') throw bad(f, 'a string');
  if (e.permanent != null && typeof e.permanent !== 'boolean') throw bad('permanent', 'a boolean');
  return e as unknown as StatusEvent;
}
