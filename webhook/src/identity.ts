import { ENV, LABEL, REVISION_ANNOTATION } from '@nvcf/operators';

/** What the webhook reads of an instance namespace. */
export interface NamespaceMeta {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** What goes on an object admitted into an instance namespace. */
export interface Injection {
  /** set on the object and its pod templates, replacing another value: an instance's ids never change */
  labels: Record<string, string>;
  /**
   * Filled in only where missing: the revision moves with every update, and the agent's own
   * apply (which waits for its objects to carry the new one) is its authority.
   */
  annotations: Record<string, string>;
  /** on every container and init container of a pod or pod template */
  env: Record<string, string>;
}

/**
 * The label that makes a namespace an instance namespace: the agent puts the instance's ids on
 * the namespace it creates for each operator instance, and the MutatingWebhookConfiguration
 * selects namespaces by it.
 */
export const INSTANCE_NAMESPACE_LABEL = LABEL.instanceId;

const IDS = Object.keys(LABEL) as (keyof typeof LABEL)[];

/** The injection for objects in this namespace, or null when it is not an instance namespace. */
export function injectionOf(ns: NamespaceMeta): Injection | null {
  if (!IDS.every((id) => ns.labels[LABEL[id]])) return null;
  const revision = ns.annotations[REVISION_ANNOTATION];
  return {
    labels: Object.fromEntries(IDS.map((id) => [LABEL[id], ns.labels[LABEL[id]]])),
    annotations: revision ? { [REVISION_ANNOTATION]: revision } : {},
    env: Object.fromEntries(IDS.map((id) => [ENV[id], ns.labels[LABEL[id]]])),
  };
}
