import { z } from 'zod';

/** A Kubernetes namespace name (RFC 1123 label). */
const namespaceName = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'expected a namespace name (lower-case letters, digits and -, at most 63)');

/**
 * Where `--sandbox k8s` runs its pods. Every field is optional: the kubeconfig is found as kubectl
 * finds it (KUBECONFIG, else ~/.kube/config, else the in-cluster service account), the context is
 * its current one, the namespace the context's own (else `default`).
 */
export const k8sSettingsSchema = z
  .object({
    kubeconfig: z.string().min(1).optional().describe('kubeconfig file (default: as kubectl finds it)'),
    context: z.string().min(1).optional().describe('kubeconfig context (--k8s-context)'),
    namespace: namespaceName.optional().describe('namespace of the sandbox pods (--k8s-namespace)'),
    registry: z
      .string()
      .regex(/^[^\s/][^\s]*[^\s/]$/, 'expected a registry prefix such as registry.example.com:5000/ssr (no trailing /)')
      .optional()
      .describe('prefix the cluster pulls ssr images from (--k8s-registry); absent: the bare local tag, as `kind load` leaves it'),
  })
  .strict();
export type K8sSettings = z.infer<typeof k8sSettingsSchema>;

/** The settings the environment gives (SSR_K8S_NAMESPACE, SSR_K8S_CONTEXT, SSR_K8S_REGISTRY). */
export function k8sSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): K8sSettings {
  const pick = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  // Checked where they are used (loadK8sCluster), with the flag's name in the message.
  return { context: pick('SSR_K8S_CONTEXT'), namespace: pick('SSR_K8S_NAMESPACE'), registry: pick('SSR_K8S_REGISTRY') };
}

let configured: K8sSettings | undefined;

/**
 * Set the process's cluster from the CLI's `--k8s-*` flags (over the SSR_K8S_* environment), as
 * DOCKER_HOST sets the Docker backend's engine. Call before the first `k8sCluster()`. Kept apart
 * from the cluster's module so the CLI can take the flags without loading the Kubernetes client.
 */
export function configureK8s(settings: K8sSettings): void {
  configured = { ...k8sSettingsFromEnv(), ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) };
}

/** The settings of the last {@link configureK8s}, else the environment's (a new object each time configureK8s runs). */
export function configuredK8sSettings(): K8sSettings {
  return (configured ??= k8sSettingsFromEnv());
}
