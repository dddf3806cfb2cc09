// The realistic mix's five selections of instanceStatusChanged: three the gateway answers from
// the event alone, two that name Instance fields another subgraph owns (the cluster's name and
// regions, from icms), so each event costs an entity fetch through the supergraph; the second
// also selects the instance's state and updatedAt, which the gateway takes from the event.

export interface Selection {
  name: string;
  query: string;
  /** selects fields the gateway fetches through the supergraph */
  remote: boolean;
}

const sub = (body: string) =>
  `subscription($f: ID, $after: String) { instanceStatusChanged(functionId: $f, after: $after) { ${body} } }`;

export const SELECTIONS: readonly Selection[] = [
  { name: 'state', remote: false, query: sub('cursor state at message') },
  {
    name: 'transition',
    remote: false,
    query: sub('cursor kind state previousState revisionId message instance { id state } '),
  },
  {
    name: 'keys',
    remote: false,
    query: sub('cursor state message instance { id cluster { id } gpuSpecification { id } }'),
  },
  { name: 'cluster', remote: true, query: sub('cursor state message instance { id cluster { id name } }') },
  {
    name: 'cluster+state',
    remote: true,
    query: sub('cursor state at message instance { id state updatedAt cluster { name regions } }'),
  },
];

const LOCAL = SELECTIONS.filter((s) => !s.remote),
  REMOTE = SELECTIONS.filter((s) => s.remote);

/**
 * Subscriber `i`'s selection: every third subscriber selects remote fields (alternating between
 * the two remote selections), the others cycle through the three local ones.
 */
export function selectionOf(i: number): Selection {
  const third = Math.floor(i / 3);
  if (i % 3 === 0) return REMOTE[third % REMOTE.length];
  return LOCAL[(third * 2 + (i % 3) - 1) % LOCAL.length];
}

/** What a delivered event carries of the instance (only the fields the remote selections name). */
export interface DeliveredInstance {
  id?: unknown;
  state?: unknown;
  cluster?: { name?: unknown; regions?: unknown } | null;
}

/**
 * Why a delivery of a remote selection lacks what the supergraph should have filled in (null
 * when complete): the cluster's name as icms registered it, and for cluster+state also the
 * regions and the event's state. A missing field is a failed entity fetch, not a delivery.
 */
export function missingRemote(
  s: Selection,
  instance: DeliveredInstance | null | undefined,
  clusterName: string | undefined,
): string | null {
  if (!s.remote) return null;
  if (!instance) return 'no instance';
  if (clusterName === undefined) return `instance ${String(instance.id)} is not one of the run's`;
  if (instance.cluster?.name !== clusterName)
    return `cluster name ${JSON.stringify(instance.cluster?.name)} ≠ ${clusterName}`;
  if (s.name === 'cluster+state') {
    if (typeof instance.state !== 'string') return 'no state';
    if (!Array.isArray(instance.cluster.regions) || !instance.cluster.regions.length) return 'no regions';
  }
  return null;
}
