import { EngineError, errorMessage } from '../../util/engine-error.js';
import type { K8sCluster } from './k8s-cluster.js';

/** Where the docs say which Role the backend needs. */
export const RBAC_HINT = 'grant the Role of docs/kubernetes.md ("RBAC") to the kubeconfig\'s user';

/** Certificate errors of node's TLS: the kubeconfig does not trust the server it names. */
const TLS_REJECTED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']);

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** A Status object the API server sent back (its `message` names the verb and resource). */
interface ApiStatus {
  message?: string;
  reason?: string;
  details?: { kind?: string; name?: string };
}

/** HTTP status of a client error, if the API server answered. */
export function k8sStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** The API server's Status body of a failed call, when it sent one. */
export function apiStatusOf(error: unknown): ApiStatus | undefined {
  const body = (error as { body?: unknown } | undefined)?.body;
  if (typeof body === 'object' && body !== null) return body as ApiStatus;
  if (typeof body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? (parsed as ApiStatus) : undefined;
  } catch {
    return undefined;
  }
}

/** The errno-style code of a failed connection (node-fetch and ws wrap it differently). */
function networkCode(error: unknown): string | undefined {
  const candidates = [error, (error as { error?: unknown })?.error, (error as { cause?: unknown })?.cause];
  for (const candidate of candidates) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Is this the namespace itself missing (404 on an object inside it)? */
export function isMissingNamespace(error: unknown): boolean {
  return k8sStatus(error) === 404 && apiStatusOf(error)?.details?.kind === 'namespaces';
}

/**
 * Turn a client failure into an EngineError saying what to do: an unreachable API server
 * (`k8s-unavailable`, retryable), rejected credentials, a forbidden verb (the API server's own
 * message, which names verb, resource and namespace), a missing namespace; anything else the API
 * server refused is a retryable `sandbox-failed`.
 */
export function k8sError(cluster: K8sCluster, action: string, error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const status = k8sStatus(error);
  const where = `cluster ${cluster.server} (context ${cluster.context})`;
  if (status === undefined) {
    const code = networkCode(error);
    if (code !== undefined && TLS_REJECTED.has(code)) {
      return new EngineError('sandbox-unavailable', `${action}: the certificate of ${where} is not trusted (${code}); check the cluster's certificate-authority(-data) in the kubeconfig`, { cause: error });
    }
    if (code !== undefined && UNREACHABLE.has(code)) {
      return new EngineError('k8s-unavailable', `${action}: the Kubernetes API server of ${where} is not reachable (${code}); check the kubeconfig's server address and that the cluster is up`, { retryable: true, cause: error });
    }
    // A failed websocket upgrade arrives as an ErrorEvent: an object with a message, not an Error.
    const message = (error as { message?: unknown } | undefined)?.message;
    return new EngineError('sandbox-failed', `${action} on ${where}: ${typeof message === 'string' ? message : errorMessage(error)}`, { retryable: true, cause: error });
  }
  const message = apiStatusOf(error)?.message ?? `HTTP ${status}`;
  if (status === 401) {
    return new EngineError('sandbox-unavailable', `${action}: ${where} rejected the kubeconfig's credentials (401 Unauthorized); refresh them (e.g. log in again) or pick another context`, { cause: error });
  }
  if (status === 403) {
    return new EngineError('sandbox-unavailable', `${action}: forbidden: ${message}; ${RBAC_HINT}`, { cause: error });
  }
  if (isMissingNamespace(error)) {
    return new EngineError('sandbox-unavailable', `${action}: namespace ${cluster.namespace} does not exist on ${where}; create it (kubectl create namespace ${cluster.namespace}) or pass --k8s-namespace`, { cause: error });
  }
  return new EngineError('sandbox-failed', `${action}: ${message} (HTTP ${status})`, { retryable: status >= 500 || status === 429 || status === 409, cause: error });
}
