import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config';

// No cluster runs here: these validate each manifest against Kubernetes' own schemas (the
// kubernetes-models package) and read them as the cluster would.
const folder = join(__dirname, '..', '..', 'deploy', 'kubernetes');
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};
const files = readdirSync(folder).filter((file) => file.endsWith('.yaml'));
const read = (file: string) => parse(readFileSync(join(folder, file), 'utf8')) as Manifest;
const manifests = files.filter((file) => file !== 'kustomization.yaml').map(read);
const one = (kind: string) => {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};

/** The model class of a manifest: `apps/v1` + `Deployment` is kubernetes-models/apps/v1/Deployment. */
async function modelOf(manifest: Manifest): Promise<new (data: unknown) => { validate(): void }> {
  const module = (await import(`kubernetes-models/${manifest.apiVersion}/${manifest.kind}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  return module[manifest.kind];
}

describe('deploy/kubernetes', () => {
  it('lists every manifest in its kustomization, and each is valid against Kubernetes schemas', async () => {
    const kustomization = read('kustomization.yaml') as unknown as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(files.filter((file) => file !== 'kustomization.yaml').sort());
    for (const manifest of manifests) {
      const Model = await modelOf(manifest);
      expect(() => new Model(manifest).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('the validation refuses a manifest that is wrong (so the check above can fail)', async () => {
    const deployment = structuredClone(one('Deployment'));
    deployment.spec.replicas = 'three';
    const Model = await modelOf(deployment);
    expect(() => new Model(deployment).validate()).toThrow(/replicas must be integer/);
  });

  it('runs three replicas with readiness and liveness probes, a preStop pause and a grace period above the service own', () => {
    const deployment = one('Deployment');
    expect(deployment.spec.replicas).toBe(3);
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
    const pause = container.lifecycle.preStop.sleep.seconds as number;
    expect(pause).toBeGreaterThan(0);
    const grace = Number(one('ConfigMap').data!.SHUTDOWN_GRACE_MS);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(pause * 1000 + grace);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.envFrom).toEqual([
      { configMapRef: { name: one('ConfigMap').metadata.name } },
      { secretRef: { name: one('Secret').metadata.name } },
    ]);
  });

  it('keeps two of three replicas through a disruption, and scales on CPU from three', () => {
    expect(one('PodDisruptionBudget').spec.maxUnavailable).toBe(1);
    const autoscaler = one('HorizontalPodAutoscaler').spec;
    expect(autoscaler.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: one('Deployment').metadata.name });
    expect(autoscaler.minReplicas).toBe(3);
    expect(autoscaler.maxReplicas).toBeGreaterThan(3);
  });

  it('lets only the monitoring namespace reach the metrics port, which the Service does not expose', () => {
    const config = loadConfig({ ...one('ConfigMap').data, ...one('Secret').stringData });
    const container = one('Deployment').spec.template.spec.containers[0];
    expect(container.ports).toEqual(
      expect.arrayContaining([
        { name: 'metrics', containerPort: config.METRICS_PORT },
        { name: 'http', containerPort: config.PORT },
      ]),
    );
    const rules = one('NetworkPolicy').spec.ingress as { from?: unknown[]; ports: { port: string }[] }[];
    const metrics = rules.filter((rule) => rule.ports.some((port) => port.port === 'metrics'));
    expect(metrics).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ port: 'metrics', protocol: 'TCP' }],
      },
    ]);
    expect(one('Service').spec.ports.map((port: { targetPort: string }) => port.targetPort)).toEqual(['http']);
  });

  it('sets only settings the service reads, with values it accepts, and trusts one proxy hop', () => {
    const environment = { ...one('ConfigMap').data, ...one('Secret').stringData };
    const config = loadConfig(environment) as unknown as Record<string, unknown>;
    expect(Object.keys(environment).filter((key) => !(key in config))).toEqual([]);
    expect(config).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data' });
    expect(environment.TRUST_PROXY).toBe('1');
    const mount = one('Deployment').spec.template.spec.containers[0].volumeMounts[0];
    expect(mount.mountPath).toBe(config.DATA_DIR);
  });
});
