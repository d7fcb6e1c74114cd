import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, settingsSchema } from '../../src/config';

// Docker does not run here: these read compose.yaml and the Dockerfile as Docker would, and check
// them against the settings the service reads.
const root = join(__dirname, '..', '..');
const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    { environment?: Record<string, string>; build?: unknown; depends_on?: Record<string, unknown>; volumes?: string[] }
  >;
};
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

/** What `docker compose` does with `${NAME:?message}` and `${NAME:-default}`: an unset or empty NAME takes the default, or stops compose. */
const interpolate = (value: string, env: Record<string, string>) =>
  String(value).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, fallback?: string) => {
    if (env[name]) return env[name];
    if (kind === '-') return fallback ?? '';
    throw new Error(`compose.yaml needs ${name}: ${fallback ?? ''}`);
  });
const operator = {
  POSTGRES_PASSWORD: 'a-password',
  JWT_SECRET: 'x'.repeat(64),
  PUBLIC_URL: 'https://learn.example',
  WEB_ORIGIN: 'https://web.example',
};

/** Read as the process starts, not by the service: glibc's malloc arenas and V8's heap limit (docs/operations.md, Memory). */
const RUNTIME = { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-old-space-size=512' };

const instances = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

describe('compose.yaml', () => {
  it('runs two instances of the service, PostgreSQL, Redis and a proxy in front', () => {
    expect(instances.map(([name]) => name)).toEqual(['api-1', 'api-2']);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'proxy']));
    expect(compose.services.proxy.depends_on).toEqual(
      expect.objectContaining({ 'api-1': expect.anything(), 'api-2': expect.anything() }),
    );
    const nginx = readFileSync(join(root, 'deploy', 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/server api-1:4000/);
    expect(nginx).toMatch(/server api-2:4000/);
  });

  it('sets only settings the service reads, with values it accepts', () => {
    for (const [name, service] of instances) {
      const environment = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(value, operator)]),
      );
      expect(Object.keys(environment).length, name).toBeGreaterThan(5);
      // loadConfig keeps only the keys of its schema and throws on a value it refuses.
      const config = loadConfig(environment) as unknown as Record<string, unknown>;
      const unknown = Object.keys(environment).filter((key) => !(key in settingsSchema.shape));
      expect(unknown, `${name} sets what src/config.ts does not read`).toEqual([]);
      expect(config).toMatchObject({
        NODE_ENV: 'production',
        DATABASE_URL: expect.stringMatching(/@postgres:5432\//),
        REDIS_URL: 'redis://redis:6379',
        TRUST_PROXY: 1,
      });
    }
  });

  it('lets Docker wait past the service own shutdown grace before it kills an instance', () => {
    for (const [name, service] of instances) {
      const grace = loadConfig({ JWT_SECRET: operator.JWT_SECRET }).SHUTDOWN_GRACE_MS;
      const [, seconds] = /^(\d+)s$/.exec(String((service as { stop_grace_period?: string }).stop_grace_period)) ?? [];
      expect(Number(seconds) * 1000, name).toBeGreaterThan(grace);
    }
  });

  it('runs the job queue on MongoDB with the mongo profile, and on PostgreSQL without it', () => {
    const mongo = compose.services.mongo as { profiles?: string[]; image?: string };
    expect(mongo.profiles).toEqual(['mongo']);
    const environmentOf = (env: Record<string, string>) =>
      loadConfig(
        Object.fromEntries(
          Object.entries(instances[0][1].environment ?? {}).map(([key, value]) => [key, interpolate(value, env)]),
        ),
      );
    expect(environmentOf(operator).MONGODB_URL).toBeUndefined();
    expect(environmentOf({ ...operator, MONGODB_URL: 'mongodb://mongo:27017/learning' }).MONGODB_URL).toBe(
      'mongodb://mongo:27017/learning',
    );
    // The others start after the first, which waits for it.
    expect(instances[0][1].depends_on).toMatchObject({ mongo: { condition: 'service_healthy', required: false } });
  });

  it('shares one secret and one DATA_DIR between the instances', () => {
    const [[, first], [, second]] = instances;
    expect(first.environment!.JWT_SECRET).toBe(second.environment!.JWT_SECRET);
    expect(first.volumes).toEqual(second.volumes);
  });
});

describe('Dockerfile', () => {
  it('builds on Node 24 and runs as a user that is not root', () => {
    const bases = [...dockerfile.matchAll(/^FROM\s+(\S+)/gim)].map((match) => match[1]);
    expect(bases.length).toBeGreaterThan(1);
    for (const base of bases) expect(base).toMatch(/^node:24(\D|$)/);
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gim)].map((match) => match[1]);
    expect(users.at(-1)).toBeDefined();
    expect(['root', '0']).not.toContain(users.at(-1));
  });

  it('sets only settings the service reads, checks liveness and exposes the port it listens on', () => {
    const env = Object.fromEntries(
      [...dockerfile.matchAll(/(\w+)=(\S+)/g)]
        .filter(([, key]) => /^[A-Z_]+$/.test(key) && !(key in RUNTIME))
        .map(([, key, value]) => [key, value]),
    );
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['NODE_ENV', 'PORT', 'DATA_DIR']));
    const config = loadConfig({ ...env, JWT_SECRET: operator.JWT_SECRET }) as unknown as Record<string, unknown>;
    expect(Object.keys(env).filter((key) => !(key in config))).toEqual([]);
    expect(dockerfile).toMatch(/^HEALTHCHECK[\s\S]*\/health\/live/m);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${String(config.PORT)}$`, 'm'));
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
  });

  it('runs the service with two malloc arenas and a heap of 512 MiB', () => {
    const env = /^ENV\s+((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? '';
    for (const [key, value] of Object.entries(RUNTIME)) expect(env).toMatch(new RegExp(`\\b${key}=${value}\\b`));
  });
});
