import { EngineError } from '../../util/engine-error.js';
import type { K8sCluster } from './k8s-cluster.js';
import { k8sError, RBAC_HINT } from './k8s-error.js';
import { ensureDenyAllPolicy } from './network-policy.js';

/** One permission the backend needs in its namespace. */
export interface K8sPermission {
  verb: string;
  resource: string;
  subresource?: string;
  group?: string;
}

/** Everything the backend does: pods and their exec, and the deny-all NetworkPolicy. */
export const REQUIRED_PERMISSIONS: readonly K8sPermission[] = [
  ...['create', 'get', 'list', 'delete'].map((verb) => ({ verb, resource: 'pods' })),
  // Websocket exec is authorised as `get` by older API servers and as `create` by newer ones.
  ...['create', 'get'].map((verb) => ({ verb, resource: 'pods', subresource: 'exec' })),
  ...['create', 'get', 'update'].map((verb) => ({ verb, resource: 'networkpolicies', group: 'networking.k8s.io' })),
];

function describe(permission: K8sPermission): string {
  const resource = permission.subresource ? `${permission.resource}/${permission.subresource}` : permission.resource;
  return `${permission.verb} ${permission.group ? `${resource}.${permission.group}` : resource}`;
}

/** The permissions of {@link REQUIRED_PERMISSIONS} the kubeconfig's user lacks (SelfSubjectAccessReview each). */
export async function missingPermissions(cluster: K8sCluster): Promise<K8sPermission[]> {
  const reviews = REQUIRED_PERMISSIONS.map(async (permission) => {
    const review = await cluster.authorization.createSelfSubjectAccessReview({
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            namespace: cluster.namespace,
            verb: permission.verb,
            resource: permission.resource,
            group: permission.group ?? '',
            ...(permission.subresource ? { subresource: permission.subresource } : {}),
          },
        },
      },
    });
    return review.status?.allowed === true ? null : permission;
  });
  try {
    return (await Promise.all(reviews)).filter((permission): permission is K8sPermission => permission !== null);
  } catch (error) {
    throw k8sError(cluster, 'checking permissions (SelfSubjectAccessReview)', error);
  }
}

/**
 * Check at start-up, before any episode, that sandboxes can run: the API server answers and
 * accepts the credentials, the user may do every verb the backend needs in the namespace, and
 * the namespace exists (the deny-all NetworkPolicy is ensured in it). Returns a one-line description.
 */
export async function preflightK8s(cluster: K8sCluster): Promise<string> {
  const missing = await missingPermissions(cluster);
  if (missing.length > 0) {
    throw new EngineError(
      'sandbox-unavailable',
      `--sandbox k8s: the kubeconfig's user (context ${cluster.context}) may not ${missing.map(describe).join(', ')} in namespace ${cluster.namespace}; ${RBAC_HINT}`,
    );
  }
  await ensureDenyAllPolicy(cluster);
  return `Kubernetes cluster ${cluster.server} (context ${cluster.context}), namespace ${cluster.namespace}`;
}
