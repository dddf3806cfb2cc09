import type { NvcfStore } from './store/index.js';
import type { IcmsClient } from './icms-client.js';
import type { OperatorRegistry } from '@nvcf/operators';
import { Rollouts } from './rollouts.js';

export interface NvcfLimits {
  maxConfigurationBytes: number;
}

/** Everything nvcf's operations share: the store, ICMS, the registry, limits. */
export class Nvcf {
  readonly rollouts: Rollouts;
  constructor(
    readonly store: NvcfStore,
    readonly icms: IcmsClient,
    readonly registry: OperatorRegistry,
    readonly limits: NvcfLimits,
    readonly revisionDeadlineMs: number,
  ) {
    this.rollouts = new Rollouts(store);
  }
  deadlineFrom(nowMs: number): string {
    return new Date(nowMs + this.revisionDeadlineMs).toISOString();
  }
}
