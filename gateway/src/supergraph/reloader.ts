import { readFile } from 'node:fs/promises';
import type { GraphQLSchema } from 'graphql';
import type { SubgraphName } from '@nvcf/schema';
import { createLogger } from '@nvcf/logging';
import type { SupergraphMetrics } from '../metrics.js';
import { SupergraphRejected } from '../runtime.js';
import { prepareSupergraph, sha256, SupergraphInvalid, type PreparedSupergraph } from './prepare.js';

const log = createLogger('gateway');

export type ReloadResult =
  /** served from now on; `ended`: status subscriptions whose selection no longer validated */
  | { result: 'ok'; sha256: string; ended: number }
  /** the same bytes as the supergraph served: nothing to do */
  | { result: 'unchanged'; sha256: string }
  /** refused, the previous one serves on */
  | { result: 'invalid'; sha256: string; reason: string };

export interface ReloaderOptions {
  subgraphs: Record<SubgraphName, string>;
  /** the file `reload()` reads when given no text */
  file?: string;
  initial: PreparedSupergraph;
  /** builds the query planner from the SDL and serves it; resolves with the runtime's new schema */
  replace(sdl: string): Promise<GraphQLSchema>;
  /** switches everything that validates against the schema (guard, status subscriptions), in one turn; returns the subscriptions ended */
  switchTo(schema: GraphQLSchema, publicSchema: GraphQLSchema): number;
  metrics: SupergraphMetrics;
}

/**
 * Replaces the supergraph the gateway serves, one reload at a time: checked (prepare.ts), then
 * planned by the runtime, then switched. Anything that fails leaves the served supergraph as it
 * was; readiness does not change either way (a bad file is the operator's to fix, not a reason
 * to take replicas out of the load balancer).
 */
export class SupergraphReloader {
  private served: PreparedSupergraph;
  private queue: Promise<unknown> = Promise.resolve();
  constructor(private readonly opts: ReloaderOptions) {
    this.served = opts.initial;
  }

  /** sha256 of the supergraph served, as read */
  get sha256(): string {
    return this.served.hash;
  }

  /** Settles once no reload is running (dispose waits for it before the runtime goes). */
  idle(): Promise<unknown> {
    return this.queue;
  }

  /** Loads `text`, or the file again; reloads run one after another, each against what the last one left. */
  reload(text?: string): Promise<ReloadResult> {
    const run = this.queue.then(() => this.load(text));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(given?: string): Promise<ReloadResult> {
    const started = performance.now();
    let text: string;
    if (given !== undefined) text = given;
    else if (this.opts.file) {
      try {
        text = await readFile(this.opts.file, 'utf8');
      } catch (err) {
        return this.refuse(this.served.hash, `cannot read ${this.opts.file}: ${(err as Error).message}`);
      }
    } else return { result: 'unchanged', sha256: this.served.hash };
    const hash = sha256(text);
    if (hash === this.served.hash) return { result: 'unchanged', sha256: hash };
    let next: PreparedSupergraph;
    try {
      next = prepareSupergraph(text, this.opts.subgraphs);
    } catch (err) {
      if (err instanceof SupergraphInvalid) return this.refuse(hash, err.message);
      throw err;
    }
    let schema: GraphQLSchema;
    try {
      schema = await this.opts.replace(next.sdl);
    } catch (err) {
      if (err instanceof SupergraphRejected) return this.refuse(hash, err.message);
      throw err;
    }
    const ended = this.opts.switchTo(schema, next.publicSchema);
    this.served = next;
    this.opts.metrics.loaded(hash, ended);
    log.log(
      'info',
      { sha256: hash, endedSubscriptions: ended, ms: Math.round(performance.now() - started) },
      'supergraph reloaded',
    );
    return { result: 'ok', sha256: hash, ended };
  }

  private refuse(hash: string, reason: string): ReloadResult {
    this.opts.metrics.refused();
    log.log(
      'error',
      { sha256: hash, served: this.served.hash, reason },
      'supergraph refused; the previous one serves on',
    );
    return { result: 'invalid', sha256: hash, reason };
  }
}
