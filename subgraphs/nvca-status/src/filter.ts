import type { StatusFilter } from './store/types.js';

type Row = { functionId: string; versionId: string; gpuSpecificationId: string; instanceId: string };

export const matches = (f: StatusFilter, r: Row) =>
  (!f.functionId || f.functionId === r.functionId) &&
  (!f.versionId || f.versionId === r.versionId) &&
  (!f.gpuSpecificationId || f.gpuSpecificationId === r.gpuSpecificationId) &&
  (!f.instanceId || f.instanceId === r.instanceId);

export const hasFilter = (f: StatusFilter) => !!(f.functionId || f.versionId || f.gpuSpecificationId || f.instanceId);
