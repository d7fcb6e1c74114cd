import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { loadConfig } from '../../config';
import { ensureDatabase } from '../../db/embedded';
import { besideGlobal, databaseOf, regionUrlSetting } from '../../db/regions';
import { regions } from '../../server/regions';
import { nginxPrefix, readSiteTemplate, reloadNginx, renderSite } from './nginx';
import { freePort, type Member, type OutputSink, spawnMember, stopMember, waitUntil } from './processes';
import { startRedis } from './redis';

export interface FleetOptions {
  /** How many instances of the service (3). */
  instances?: number;
  /** DATA_DIR of every instance (exports and the file mail outbox are shared); the embedded PostgreSQL's data too when it runs. */
  dataDir: string;
  /** A database the instances share; unset, the fleet runs the embedded PostgreSQL under `dataDir`. */
  databaseUrl?: string;
  /** Run a Redis for the rate limits (default: when `redis-server` is on the PATH). */
  redis?: boolean;
  /** The instances' environment, on which the fleet sets PORT, DATA_DIR, DATABASE_URL, REDIS_URL and JWT_SECRET. */
  env?: NodeJS.ProcessEnv;
  onOutput?: OutputSink;
}

/** The whole shutdown of an instance, SHUTDOWN_GRACE_MS's default, and a little more for the process to exit. */
const INSTANCE_STOP_MS = 30_000;
/** The instances' heap limit, as the image and `npm start` set it (docs/operations.md, Memory); NODE_OPTIONS of `env` come after it and win. */
const HEAP_LIMIT = '--max-old-space-size=512';
const START_TIMEOUT_MS = 180_000;

/** The repository: the folder above this file with the package.json (from src/ under vitest, from dist/src/ when built). */
export function repositoryRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
    dir = dirname(dir);
  }
  return dir;
}

/** A program on the PATH, or undefined. */
export function onPath(program: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, program))
    .find((path) => existsSync(path));
}

/** Debian installs nginx in /usr/sbin, which a user's PATH may not name. */
const nginxProgram = () => onPath('nginx') ?? '/usr/sbin/nginx';

/** One instance of the built service (dist/src/main.js) on a port of its own. */
export class Instance {
  member?: Member;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly onOutput: OutputSink,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it and waits until it says it is ready (database, migrations, outbox relay). */
  async start(): Promise<void> {
    const main = join(repositoryRoot(), 'dist', 'src', 'main.js');
    const member = spawnMember(
      this.name,
      process.execPath,
      [main],
      { ...this.env, PORT: String(this.port) },
      this.onOutput,
    );
    this.member = member;
    await waitUntil(
      async () => (await fetch(`${this.url}/health/ready`)).status === 200,
      START_TIMEOUT_MS,
      member,
      () => `${this.name} did not become ready:\n${member.recent()}`,
    );
  }

  /** SIGTERM, as a process manager stops it: it says not ready, finishes what it holds, then exits. */
  async stop(): Promise<void> {
    if (this.member) await stopMember(this.member, 'SIGTERM', INSTANCE_STOP_MS);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}

/**
 * A fleet on one machine without containers: one PostgreSQL (the embedded binaries, unless given a
 * database), Redis when asked or found, N instances of the built service sharing them, and nginx in
 * front with deploy/nginx.conf, each in its own process group on a free port. `stop` stops them in
 * the reverse order, and may be called at any time, during `start` too.
 */
export class Fleet {
  readonly instances: Instance[] = [];
  proxyUrl = '';
  databaseUrl = '';
  redisUrl?: string;
  private postgres?: Member;
  private redisServer?: Member;
  private nginx?: { member: Member; prefix: string; template: string; listen: number };
  private stopping = false;
  private readonly onOutput: OutputSink;

  constructor(private readonly options: FleetOptions) {
    this.onOutput = options.onOutput ?? (() => undefined);
  }

  async start(): Promise<void> {
    if (!existsSync(nginxProgram()))
      throw new Error('nginx is not installed (apt-get install nginx): the fleet puts it in front of the instances');
    if (this.options.redis && !onPath('redis-server'))
      throw new Error('redis-server is not installed (apt-get install redis-server)');
    mkdirSync(this.options.dataDir, { recursive: true, mode: 0o711 });
    this.databaseUrl = this.options.databaseUrl ?? (await this.startPostgres());
    if (this.options.redis ?? onPath('redis-server') !== undefined)
      ({ url: this.redisUrl, member: this.redisServer } = await startRedis(this.onOutput));
    const env: NodeJS.ProcessEnv = {
      // As the image and `npm start` run the service (docs/operations.md, Memory).
      MALLOC_ARENA_MAX: '2',
      ...this.options.env,
      NODE_OPTIONS: [HEAP_LIMIT, this.options.env?.NODE_OPTIONS].filter(Boolean).join(' '),
      DATA_DIR: this.options.dataDir,
      DATABASE_URL: this.databaseUrl,
      ...(await this.regionDatabases()),
      ...(this.redisUrl ? { REDIS_URL: this.redisUrl } : {}),
      // One secret, so that every instance accepts the tokens of the others.
      JWT_SECRET: this.options.env?.JWT_SECRET ?? loadConfig({ DATA_DIR: this.options.dataDir }).JWT_SECRET,
    };
    for (let i = 1; i <= (this.options.instances ?? 3); i++)
      this.instances.push(new Instance(`api-${i}`, await freePort(), env, this.onOutput));
    // The first applies the migrations alone; the others start once it is ready, together.
    await this.step(() => this.instances[0].start());
    await this.step(() => Promise.all(this.instances.slice(1).map((instance) => instance.start())));
    await this.step(() => this.startNginx());
  }

  /** Stops nginx, then the instances (each finishing its requests), then Redis, then PostgreSQL. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.nginx) {
      await stopMember(this.nginx.member, 'SIGQUIT', 10_000);
      rmSync(this.nginx.prefix, { recursive: true, force: true });
    }
    await Promise.all(this.instances.map((instance) => instance.stop()));
    if (this.redisServer) await stopMember(this.redisServer, 'SIGTERM', 10_000);
    if (this.postgres) await stopMember(this.postgres, 'SIGTERM', 60_000);
  }

  /**
   * Restarts one instance as an operator rolls a fleet behind nginx: out of the upstream first (nginx
   * reloaded, its old workers done), so that no request is on its way to it when it stops; then
   * SIGTERM and a new start; then back in. Stopping it in place is not enough: its HTTP server, as it
   * closes, ends the connections on which no request has arrived yet, and a POST nginx has just
   * written to one of them is answered 502, since nginx never sends a POST to a second instance.
   */
  async restart(instance: Instance): Promise<void> {
    await this.routeAround([instance]);
    await instance.restart();
    await this.routeAround([]);
  }

  private async routeAround(down: Instance[]): Promise<void> {
    const { member, prefix, template, listen } = this.nginx!;
    const site = renderSite(
      template,
      this.instances.map((instance) => instance.port),
      listen,
      down.map((instance) => instance.port),
    );
    await reloadNginx(member.child.pid!, prefix, site);
  }

  /** Runs a start-up step unless the fleet is being stopped (Ctrl-C while it starts). */
  private async step(work: () => Promise<unknown>): Promise<void> {
    if (this.stopping) throw new Error('the fleet was stopped while starting');
    await work();
  }

  private async startPostgres(): Promise<string> {
    let url = '';
    const script = join(repositoryRoot(), 'dist', 'src', 'scripts', 'fleet', 'postgres.js');
    // Its first line gives the connection string, with the password: kept, not shown.
    const member = spawnMember(
      'postgres',
      process.execPath,
      [script, this.options.dataDir, String(await freePort())],
      { PATH: process.env.PATH, HOME: process.env.HOME },
      (name, line) => (line.startsWith('url ') ? (url = line.slice(4)) : this.onOutput(name, line)),
    );
    this.postgres = member;
    await waitUntil(
      () => Promise.resolve(url !== ''),
      START_TIMEOUT_MS,
      member,
      () => `the fleet's PostgreSQL did not start:\n${member.recent()}`,
    );
    return url;
  }

  /**
   * Each region's database beside the shared one, made here, unless the environment names it: the
   * instances run as production, which refuses to start without them.
   */
  private async regionDatabases(): Promise<Record<string, string>> {
    const settings: Record<string, string> = {};
    for (const region of regions.slice(1)) {
      const setting = regionUrlSetting(region);
      if (this.options.env?.[setting]) continue;
      settings[setting] = besideGlobal(this.databaseUrl, region);
      await ensureDatabase(this.databaseUrl, databaseOf(settings[setting]));
    }
    return settings;
  }

  private async startNginx(): Promise<void> {
    const listen = await freePort();
    const template = readSiteTemplate(repositoryRoot());
    const site = renderSite(
      template,
      this.instances.map((instance) => instance.port),
      listen,
    );
    const { prefix, conf } = nginxPrefix(site);
    const member = spawnMember(
      'nginx',
      nginxProgram(),
      ['-p', prefix, '-c', conf, '-e', 'stderr', '-g', 'daemon off;'],
      { PATH: process.env.PATH },
      this.onOutput,
    );
    this.nginx = { member, prefix, template, listen };
    this.proxyUrl = `http://127.0.0.1:${listen}`;
    await waitUntil(
      async () => (await fetch(`${this.proxyUrl}/health/live`)).status === 200,
      30_000,
      member,
      () => `nginx did not start:\n${member.recent()}`,
    );
  }
}
