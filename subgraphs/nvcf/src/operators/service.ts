import { fail } from '@nvcf/errors';
import { field, isList, type Obj } from '@nvcf/operators';

const portsOf = (svc: Obj | undefined) => field(svc?.spec, 'ports');
const ports = (svc: Obj | undefined) => JSON.stringify(portsOf(svc) ?? null);

/** The Service named by serviceName (and its port) is the sidecar contract of an operator workload. */
export function checkServiceUnchanged(before: Obj[], after: Obj[], serviceName: string, servicePort: number) {
  const find = (ms: Obj[]) => ms.find((m) => m.kind === 'Service' && field(m.metadata, 'name') === serviceName);
  const a = find(before),
    b = find(after);
  const served = (svc: Obj) => {
    const list = portsOf(svc) ?? [];
    return isList(list) && list.some((p) => field(p, 'port') === servicePort);
  };
  if (ports(a) !== ports(b) || (b && !served(b))) {
    throw fail(
      'REDEPLOY_REQUIRED',
      `the patch changes Service '${serviceName}' or its port ${servicePort}, the worker sidecar contract; create and deploy a new function version instead`,
      { field: 'input.revision.manifestMergePatches' },
    );
  }
}
