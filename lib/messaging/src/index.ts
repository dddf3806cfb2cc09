export { createMemoryBus } from './memory.js';
export { createNatsBus, type NatsBusOptions } from './nats.js';
export { natsStreamConfig, streamConfigDifferences, type StreamConfigDifference } from './nats-streams.js';
export { BusClosed, BusConnectError, PublishFailed, StreamConfigError } from './nats-errors.js';
export { ConsumerSetupError } from './nats-consume.js';
export { Streams, allStreams, subjects, durableName, subjectMatches } from './subjects.js';
export { msgIds } from './contracts.js';
export { PoisonMessage } from './types.js';
export { backoffFor, runDelivery } from './delivery.js';
export type {
  Bus,
  BusMessage,
  Consumer,
  ConsumerOptions,
  Delivery,
  PublishAck,
  StreamInfo,
  StreamSpec,
  TailOptions,
} from './types.js';
export type {
  InstanceState,
  Workload,
  HelmWorkload,
  OperatorWorkload,
  ContainerWorkload,
  InstanceRef,
  CreateInstanceMessage,
  UpdateInstancesMessage,
  TerminateInstanceMessage,
  StatusEvent,
  ClusterOperatorsMessage,
  OperatorSupport,
} from './contracts.js';
export type { IcmsRpc, LaunchSpec, PlacementRequest } from './icms-rpc.js';
