export { startGateway } from './server.js';
export type { GatewayOptions, RunningGateway } from './server.js';
export { reloadOnSignal } from './supergraph/watch.js';
export type { ReloadResult } from './supergraph/reloader.js';
export { defaultLimits, limitSpecs, limitEnv, renderGatewayLimitsDocs } from './limits.js';
export type { GatewayLimits } from './limits.js';
export { readGatewayConfig, readGatewayPolicy } from './config.js';
export {
  trustedModes,
  loadTrustedDocuments,
  TrustedDocumentsInvalid,
  defaultTrustedDocumentsFile,
} from './guard/trusted.js';
export type { TrustedMode } from './guard/trusted.js';
export type { AuthDefaults, GatewayConfig, GatewayPolicy } from './config.js';
export { createRuntime } from './runtime.js';
export type { Runtime, RuntimeOptions, ServerContext } from './runtime.js';
