/** Why a signal aborted, as an Error: the agent aborts with one; any other reason is wrapped. */
export const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason });

/** A failure as an Error: what is not one already (a string, a Status object) becomes its message. */
export const asError = (err: unknown): Error =>
  err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err), { cause: err });
