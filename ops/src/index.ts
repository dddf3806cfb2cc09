export { startProbe, probePassed, formatProbeSummary, formatProbeFailure } from './probe.js';
export type { Probe, ProbeOptions, ProbeSummary, ProbeFailure } from './probe.js';
export { eventTracker } from './probe-events.js';
export type { StatusEvent, EventVerdict, EventTracker } from './probe-events.js';
export { runPreflight, formatPreflight, DEFAULT_MIGRATIONS_DIR } from './preflight.js';
export type { PreflightOptions, PreflightResult, PreflightCheck, CheckStatus } from './preflight.js';
export { parseDuration, renderTable, UsageError } from './cli.js';
export { ensureReleaseStreams } from './streams.js';
export type { EnsureStreamsOptions } from './streams.js';
