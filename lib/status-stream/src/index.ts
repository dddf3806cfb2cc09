export { StatusStream } from './stream.js';
export type { StatusStreamOptions } from './stream.js';
export { StreamMetrics } from './metrics.js';
export { SubscriberFeed } from './feed.js';
export { matches, hasFilter, defaultLimits } from './types.js';
export type { StatusFilter, FeedEvent, Feed, FeedSink, Lag, StreamLimits } from './types.js';
export { toInstancePayload, toStatusPayload } from './payload.js';
export type { InstancePayload, StatusPayload } from './payload.js';
