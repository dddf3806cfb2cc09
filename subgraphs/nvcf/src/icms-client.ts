import { rpcClient } from '@nvcf/subgraph-kit';
import type { IcmsRpc } from '@nvcf/contracts';

/** The calls nvcf makes (placeTask is nvct's). */
export type IcmsClient = {
  [K in Exclude<keyof IcmsRpc, 'placeTask'>]: (
    tenant: string,
    input: IcmsRpc[K]['input'],
  ) => Promise<IcmsRpc[K]['output']>;
};

/** ICMS over its internal RPC; the URL is resolved late so services may start in any order. */
export function httpIcmsClient(baseUrl: () => string, secret: string): IcmsClient {
  const call = rpcClient(baseUrl, secret, 'icms');
  return {
    launch: (t, i) => call(t, 'launch', i),
    update: (t, i) => call(t, 'update', i),
    accepted: (t, i) => call(t, 'accepted', i),
    terminate: (t, i) => call(t, 'terminate', i),
  };
}
