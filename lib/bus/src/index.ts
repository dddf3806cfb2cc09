/** The message bus port and its two implementations (in memory, NATS JetStream); no domain knowledge. */
export { createMemoryBus } from './memory.js';
export { createNatsBus, type NatsBusOptions } from './nats.js';
export { natsStreamConfig, streamConfigDifferences, type StreamConfigDifference } from './nats-streams.js';
export { BusClosed, BusConnectError, PublishFailed, StreamConfigError } from './errors.js';
export { ConsumerSetupError } from './nats-consume.js';
export { subjectMatches } from './subject-match.js';
export { PULL_EXPIRES_MS } from './nats-loop.js';
export { PoisonMessage } from './types.js';
export { deadLetterStream, deadLetterSubject } from './dead-letter.js';
export type { OutageBackoff } from './outage.js';
export type {
  Bus,
  BusMessage,
  Consumer,
  ConsumerOptions,
  DeadLetter,
  DeadLetters,
  Delivery,
  PublishAck,
  StreamInfo,
  StreamSpec,
  StartAt,
  TailOptions,
} from './types.js';
