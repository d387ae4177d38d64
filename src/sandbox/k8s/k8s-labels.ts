import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Labels on every sandbox pod: which repo, which run, which process of which host owns it. */
export const K8S_LABELS = {
  managedBy: 'app.kubernetes.io/managed-by',
  /** Present on every sandbox pod: the deny-all NetworkPolicy selects it. */
  sandbox: 'ssr.sandbox',
  run: 'ssr.run',
  ownerHost: 'ssr.owner-host',
  ownerPid: 'ssr.owner-pid',
} as const;

/** A valid label value (≤63 characters of [A-Za-z0-9._-], alphanumeric at both ends). */
export function labelValue(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return cleaned === '' ? 'x' : cleaned;
}

/** This process's run id: one per process, so every pod it starts can be listed together. */
export const RUN_ID = randomBytes(6).toString('hex');

/** The owner labels of this process (the orphan sweep's key). */
export function ownerLabels(): Record<string, string> {
  return { [K8S_LABELS.ownerHost]: labelValue(hostname()), [K8S_LABELS.ownerPid]: String(process.pid) };
}

/** Every label of a sandbox pod of `repoId` started by this process. */
export function sandboxLabels(repoId: string): Record<string, string> {
  return { [K8S_LABELS.managedBy]: 'ssr', [K8S_LABELS.sandbox]: labelValue(repoId), [K8S_LABELS.run]: RUN_ID, ...ownerLabels() };
}

/** `k=v,k=v`: an equality label selector. */
export function labelSelector(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** A fresh pod name for a sandbox of `repoId` (an RFC 1123 subdomain). */
export function sandboxPodName(repoId: string): string {
  const stem = repoId.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40).replace(/-+$/, '');
  return `ssr-${stem}-${randomBytes(5).toString('hex')}`;
}
