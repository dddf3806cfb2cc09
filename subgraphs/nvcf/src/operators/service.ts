import { fail } from '@nvcf/errors';

type Obj = Record<string, any>;
const ports = (svc: Obj | undefined) => JSON.stringify(svc?.spec?.ports ?? null);

/** The Service named by serviceName (and its port) is the sidecar contract of an operator workload. */
export function checkServiceUnchanged(before: Obj[], after: Obj[], serviceName: string, servicePort: number) {
  const find = (ms: Obj[]) => ms.find((m) => m.kind === 'Service' && m.metadata?.name === serviceName);
  const a = find(before),
    b = find(after);
  if (ports(a) !== ports(b) || (b && !(b.spec?.ports ?? []).some((p: Obj) => p.port === servicePort))) {
    throw fail(
      'REDEPLOY_REQUIRED',
      `the patch changes Service '${serviceName}' or its port ${servicePort}, the worker sidecar contract; create and deploy a new function version instead`,
      { field: 'input.revision.manifestMergePatches' },
    );
  }
}
