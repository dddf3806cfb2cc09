export { startSubgraph } from './server.js';
export type { SubgraphOptions, RunningSubgraph, RpcHandlers } from './server.js';
export { tenantFrom, TENANT_HEADER } from './context.js';
export type { TenantContext } from './context.js';
export { rpcClient } from './rpc-client.js';
export type { RpcClient } from './rpc-client.js';
export { JSONScalar, DateTimeScalar } from './scalars.js';
export { inputLimits, inputLimit } from './input-limits.js';
export type { InputLimit, InputLimits, LimitCode } from './input-limits.js';
export { findInputViolation, checkOperationInputs, inputLimitError } from './input-walk.js';
export type { InputViolation, OperationInputs } from './input-walk.js';
export { jsonExtent, jsonStringBytes } from './json-extent.js';
export { checkName, checkHelmValues } from './input-checks.js';
export type { JsonExtent } from './json-extent.js';
export { inputLimitsPlugin } from './input-limits-plugin.js';
export {
  renderInputLimitsDocs,
  withInputLimitsSection,
  inputLimitsSectionOf,
  withDocSection,
  docSectionOf,
  LIMITS_DOC_TITLE,
} from './input-limits-docs.js';
export { loadByIds, required } from './resolvers.js';
