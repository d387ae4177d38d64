import { AuthorizationV1Api, CoreV1Api, Exec, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { configuredK8sSettings, k8sSettingsSchema, type K8sSettings } from './k8s-settings.js';

/** One cluster + namespace the k8s backend talks to, with its API clients. */
export interface K8sCluster {
  readonly kubeConfig: KubeConfig;
  /** The kubeconfig context in use. */
  readonly context: string;
  /** API server URL, for messages. */
  readonly server: string;
  readonly namespace: string;
  readonly registry: string | undefined;
  readonly core: CoreV1Api;
  readonly networking: NetworkingV1Api;
  readonly authorization: AuthorizationV1Api;
  readonly exec: Exec;
}

function loadKubeConfig(settings: K8sSettings): KubeConfig {
  const kubeConfig = new KubeConfig();
  try {
    if (settings.kubeconfig !== undefined) kubeConfig.loadFromFile(settings.kubeconfig);
    else kubeConfig.loadFromDefault();
  } catch (error) {
    const where = settings.kubeconfig ?? process.env.KUBECONFIG ?? '~/.kube/config';
    throw new EngineError('usage', `--sandbox k8s: cannot read the kubeconfig ${where}: ${errorMessage(error)}`, { cause: error });
  }
  if (settings.context !== undefined) {
    if (kubeConfig.getContextObject(settings.context) === null) {
      const known = kubeConfig.getContexts().map((context) => context.name);
      throw new EngineError('usage', `--k8s-context ${settings.context}: no such context in the kubeconfig (it has: ${known.join(', ') || 'none'})`);
    }
    kubeConfig.setCurrentContext(settings.context);
  }
  return kubeConfig;
}

/** The cluster of `settings`: the kubeconfig read and checked for a usable context; nothing is sent yet. */
export function loadK8sCluster(input: K8sSettings): K8sCluster {
  const parsed = k8sSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EngineError('usage', `--k8s-${String(issue.path[0] ?? 'settings')} ${JSON.stringify(input[issue.path[0] as keyof K8sSettings])}: ${issue.message}`);
  }
  const settings = parsed.data;
  const kubeConfig = loadKubeConfig(settings);
  const cluster = kubeConfig.getCurrentCluster();
  // With no kubeconfig anywhere the client makes up `loaded-context` at http://localhost:8080.
  if (cluster === null || (kubeConfig.getCurrentContext() === 'loaded-context' && settings.kubeconfig === undefined && !process.env.KUBECONFIG)) {
    throw new EngineError(
      'usage',
      '--sandbox k8s: no Kubernetes cluster configured: set KUBECONFIG (or write ~/.kube/config), or pick one with --k8s-context',
    );
  }
  const context = kubeConfig.getCurrentContext();
  return {
    kubeConfig,
    context,
    server: cluster.server,
    namespace: settings.namespace ?? kubeConfig.getContextObject(context)?.namespace ?? 'default',
    registry: settings.registry,
    core: kubeConfig.makeApiClient(CoreV1Api),
    networking: kubeConfig.makeApiClient(NetworkingV1Api),
    authorization: kubeConfig.makeApiClient(AuthorizationV1Api),
    exec: new Exec(kubeConfig),
  };
}

let shared: { settings: K8sSettings; cluster: K8sCluster } | undefined;

export { configureK8s } from './k8s-settings.js';

/** One cluster per process (see configureK8s); loaded on first use, and again after the settings change. */
export function k8sCluster(): K8sCluster {
  const settings = configuredK8sSettings();
  if (shared?.settings !== settings) shared = { settings, cluster: loadK8sCluster(settings) };
  return shared.cluster;
}
