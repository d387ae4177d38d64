import type { V1Pod } from '@kubernetes/client-node';
import { SANDBOX_INIT } from '../exec-scripts.js';
import { REPO_DIR, type SandboxTemplate } from '../sandbox.js';

/** The one container of a sandbox pod. */
export const SANDBOX_CONTAINER = 'sandbox';

export interface SandboxPodInput {
  name: string;
  template: SandboxTemplate;
  labels: Record<string, string>;
}

/** `runAsUser` when the template's image declares a non-root numeric user, else null (root). */
export function nonRootUser(template: SandboxTemplate): number | null {
  const user = template.user?.split(':')[0];
  if (user === undefined || !/^\d+$/.test(user)) return null;
  const uid = Number(user);
  return uid === 0 ? null : uid;
}

/**
 * The pod of one sandbox: the template's image with a long-sleep PID 1, the repo's limits as both
 * requests and limits (Guaranteed QoS: a quota counts exactly what runs), no service-account
 * token, no service links in the environment, never restarted, killed at once on delete. The
 * deny-all NetworkPolicy selects it by its labels. Runs as the image's user when that user is
 * non-root (then `runAsNonRoot` too); ssr's own images declare none, and /repo is root's.
 * Kubernetes has no per-pod pids limit: the node's kubelet sets it (docs/kubernetes.md).
 */
export function sandboxPod(input: SandboxPodInput): V1Pod {
  const { limits } = input.template;
  const quantities = { cpu: `${Math.max(1, Math.round(limits.cpus * 1000))}m`, memory: `${limits.memoryMb}Mi` };
  const uid = nonRootUser(input.template);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: input.name, labels: input.labels },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 0,
      containers: [
        {
          name: SANDBOX_CONTAINER,
          image: input.template.ref,
          imagePullPolicy: 'IfNotPresent',
          command: SANDBOX_INIT,
          workingDir: REPO_DIR,
          resources: { requests: quantities, limits: quantities },
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['NET_RAW'] },
            seccompProfile: { type: 'RuntimeDefault' },
            ...(uid === null ? {} : { runAsNonRoot: true, runAsUser: uid }),
          },
        },
      ],
    },
  };
}
