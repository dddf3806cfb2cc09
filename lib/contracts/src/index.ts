/** What the services say to each other: the streams, their subjects and payloads, and ICMS's RPC. */
export { Streams, allStreams, subjects, durableName, readerOf } from './streams.js';
export { msgIds, taskEnded } from './payloads.js';
export { statusEventOf } from './validate.js';
export { durationMs } from './duration.js';
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
  TaskStatus,
  TaskStatusEvent,
  RunTaskMessage,
  StopTaskMessage,
  TaskWorkMessage,
  TaskReport,
  TaskReportStatus,
} from './payloads.js';
export type { IcmsRpc, LaunchSpec, PlacementRequest, TaskPlacement } from './icms-rpc.js';
