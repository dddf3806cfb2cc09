import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Feed, StreamEvent } from '@nvcf/status-stream';
import type { StatusOperation } from './operation.js';
import type { StatusSchema } from './schema.js';

const done = { done: true as const, value: undefined };

/**
 * One subscription's hold on the schema it was admitted on: a supergraph reload that makes its
 * selection invalid ends it with SCHEMA_CHANGED, sent once, and nothing after. A pulled
 * subscription sees it at its next pull; a pushed one is ended at once.
 */
export class SchemaWatch {
  /** set once a reload made the selection invalid */
  private changed: GraphQLError | null = null;
  private reported = false;
  private endPush: ((err: Error) => void) | null = null;
  private stop = () => {};

  private constructor(private readonly feed: Feed<StreamEvent>) {}

  /**
   * Watches `schema` for the subscription on `feed`; without a schema (the committed public one,
   * never replaced) there is nothing to watch. The error when the selection is already invalid
   * on the schema served now (a reload while the feed opened).
   */
  static start(
    feed: Feed<StreamEvent>,
    schema: StatusSchema | undefined,
    sub: { op: StatusOperation; variables: Record<string, unknown> },
    admittedOn: GraphQLSchema,
  ): SchemaWatch | GraphQLError {
    const watch = new SchemaWatch(feed);
    if (!schema) return watch;
    const tracked = schema.track(
      {
        document: sub.op.document,
        operation: sub.op.operation,
        variables: sub.variables,
        end: (err) => watch.onChange(err),
      },
      admittedOn,
    );
    if (typeof tracked !== 'function') return tracked;
    watch.stop = tracked;
    return watch;
  }

  private onChange(err: GraphQLError) {
    this.changed = err;
    if (this.endPush) {
      this.endPush(err);
      void this.feed.return!();
    } else this.feed.end(err); // a pull waiting now rejects with it; a later one sees `changed` first
  }

  /** In push mode a change ends the sink, not the feed's pull. */
  pushTo(end: (err: Error) => void) {
    this.endPush = end;
  }

  /** For a pull: null while the selection holds; then SCHEMA_CHANGED (thrown) once, then the end. */
  ended(): typeof done | null {
    if (!this.changed) return null;
    if (this.reported) return done;
    this.reported = true;
    throw this.changed;
  }

  untrack() {
    this.stop();
  }
}
