import type { V1NetworkPolicy } from '@kubernetes/client-node';
import type { K8sCluster } from './k8s-cluster.js';
import { k8sError, k8sStatus } from './k8s-error.js';
import { K8S_LABELS } from './k8s-labels.js';

export const DENY_ALL_POLICY = 'ssr-sandbox-deny-all';

/**
 * Every sandbox pod of the namespace (any run: the label exists) gets no ingress and no egress,
 * DNS included. Enforced only by a CNI that implements NetworkPolicy (docs/kubernetes.md).
 */
export function denyAllPolicy(): V1NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: DENY_ALL_POLICY, labels: { [K8S_LABELS.managedBy]: 'ssr' } },
    spec: {
      podSelector: { matchExpressions: [{ key: K8S_LABELS.sandbox, operator: 'Exists' }] },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [],
      egress: [],
    },
  };
}

function sameSpec(a: V1NetworkPolicy['spec'], b: V1NetworkPolicy['spec']): boolean {
  const canonical = (spec: V1NetworkPolicy['spec']): string =>
    JSON.stringify({ selector: spec?.podSelector ?? {}, types: spec?.policyTypes ?? [], ingress: spec?.ingress ?? [], egress: spec?.egress ?? [] });
  return canonical(a) === canonical(b);
}

/**
 * Create the deny-all policy, or put it back as it must be when someone changed it. A missing
 * namespace or a forbidden verb surfaces here first, as the k8s error says.
 */
export async function ensureDenyAllPolicy(cluster: K8sCluster): Promise<void> {
  const { namespace } = cluster;
  const body = denyAllPolicy();
  try {
    await cluster.networking.createNamespacedNetworkPolicy({ namespace, body });
    return;
  } catch (error) {
    if (k8sStatus(error) !== 409) throw k8sError(cluster, `create NetworkPolicy ${DENY_ALL_POLICY} in namespace ${namespace}`, error);
  }
  try {
    const existing = await cluster.networking.readNamespacedNetworkPolicy({ name: DENY_ALL_POLICY, namespace });
    if (sameSpec(existing.spec, body.spec)) return;
    const replaced = { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion } };
    await cluster.networking.replaceNamespacedNetworkPolicy({ name: DENY_ALL_POLICY, namespace, body: replaced });
  } catch (error) {
    throw k8sError(cluster, `update NetworkPolicy ${DENY_ALL_POLICY} in namespace ${namespace}`, error);
  }
}
