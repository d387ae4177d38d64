import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { clusterImageRef } from '../../../../src/sandbox/k8s/k8s-template.js';
import { podProgress } from '../../../../src/sandbox/k8s/wait-for-pod.js';

function pod(status: V1PodStatus): V1Pod {
  return { spec: { containers: [{ name: 'sandbox', image: 'ssr-repo-x:abc' }] }, status };
}

const container = (state: object): V1PodStatus['containerStatuses'] => [{ name: 'sandbox', image: '', imageID: '', ready: false, restartCount: 0, state }];

describe('podProgress', () => {
  it.each([
    [{ phase: 'Running', containerStatuses: container({ running: {} }) }, { status: 'running' }],
    [{ phase: 'Pending' }, { status: 'waiting', detail: 'Pending' }],
    [{ phase: 'Pending', containerStatuses: container({ waiting: { reason: 'ContainerCreating' } }) }, { status: 'waiting', detail: 'ContainerCreating' }],
  ])('%j → %j', (status, expected) => {
    expect(podProgress(pod(status))).toEqual(expected);
  });

  it.each([
    [{ phase: 'Pending', containerStatuses: container({ waiting: { reason: 'ErrImageNeverPull', message: 'never pull' } }) }, 'sandbox-unavailable', 'the cluster cannot pull image ssr-repo-x:abc (ErrImageNeverPull: never pull)'],
    [{ phase: 'Pending', containerStatuses: container({ waiting: { reason: 'CreateContainerConfigError', message: 'bad' } }) }, 'sandbox-failed', 'cannot start (CreateContainerConfigError: bad)'],
    [{ phase: 'Failed', containerStatuses: container({ terminated: { reason: 'OOMKilled', exitCode: 137 } }) }, 'sandbox-failed', 'stopped before use (OOMKilled, exit 137)'],
    [{ phase: 'Succeeded' }, 'sandbox-failed', 'stopped before use (Succeeded)'],
  ])('fails on %j', (status, code, message) => {
    const progress = podProgress(pod(status));
    expect(progress.status).toBe('failed');
    if (progress.status === 'failed') {
      expect(progress.error.code).toBe(code);
      expect(progress.error.message).toContain(message);
    }
  });
});

describe('clusterImageRef', () => {
  it.each([
    ['ssr-repo-x:abc', undefined, 'ssr-repo-x:abc'],
    ['ssr-repo-x:abc', 'registry.example.com:5000/ssr', 'registry.example.com:5000/ssr/ssr-repo-x:abc'],
  ])('%s under %s → %s', (tag, registry, expected) => {
    expect(clusterImageRef(tag, registry)).toBe(expected);
  });
});
