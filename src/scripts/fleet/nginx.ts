import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * deploy/nginx.conf (the server block compose mounts as nginx's default site) with the fleet's
 * addresses: its upstream's servers become the instances' loopback ports, with the options written
 * there (max_fails...), those of `downPorts` marked `down` (sent nothing), and it listens on
 * `listenPort` of 127.0.0.1. Everything else is the file as deployed, so the fleet tests what an
 * operator runs.
 */
export function renderSite(
  template: string,
  upstreamPorts: number[],
  listenPort: number,
  downPorts: number[] = [],
): string {
  const upstream = /upstream api \{\n([\s\S]*?)\n\}/.exec(template);
  const servers = upstream?.[1].split('\n').filter((line) => /^\s*server\s/.test(line)) ?? [];
  const options = /^\s*server\s+\S+(.*);$/.exec(servers[0] ?? '')?.[1];
  if (!upstream || options === undefined || !/^\s*listen 80;$/m.test(template)) {
    throw new Error(
      'deploy/nginx.conf no longer has `upstream api { server host:port ...; }` and `listen 80;`: the fleet cannot place its ports in it',
    );
  }
  const ours = upstreamPorts
    .map((port) => `    server 127.0.0.1:${port}${options}${downPorts.includes(port) ? ' down' : ''};`)
    .join('\n');
  const others = upstream[1]
    .split('\n')
    .filter((line) => !/^\s*server\s/.test(line))
    .join('\n');
  return template
    .replace(upstream[0], `upstream api {\n${others ? `${others}\n` : ''}${ours}\n}`)
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${listenPort};`);
}

/**
 * A prefix folder for nginx run by hand (`nginx -p <prefix> -c <prefix>/nginx.conf -e stderr`):
 * the main configuration around the site, with its pid file, temporary files and logs inside the
 * prefix. Run as root, nginx's workers are `nobody`, who must reach the temporary folders.
 */
export function nginxPrefix(site: string): { prefix: string; conf: string } {
  const prefix = mkdtempSync(join(tmpdir(), 'lp-fleet-nginx-'));
  chmodSync(prefix, 0o711);
  writeFileSync(siteFile(prefix), site);
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    [
      'worker_processes 1;',
      `pid ${join(prefix, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events { worker_connections 1024; }',
      'http {',
      '    access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `    ${kind}_temp_path ${join(prefix, `${kind}_temp`)};`,
      ),
      `    include ${siteFile(prefix)};`,
      '}',
      '',
    ].join('\n'),
  );
  return { prefix, conf };
}

const siteFile = (prefix: string) => join(prefix, 'site.conf');

/**
 * Gives nginx a new site and waits until it serves only that one: on SIGHUP its master starts new
 * workers and the old ones finish what they hold, then exit (a WebSocket may hold one for long: the
 * wait is bounded, the instance closes such sockets itself when it stops).
 */
export async function reloadNginx(master: number, prefix: string, site: string): Promise<void> {
  writeFileSync(siteFile(prefix), site);
  const old = workersOf(master);
  process.kill(master, 'SIGHUP');
  const deadline = Date.now() + RELOAD_WAIT_MS;
  while (Date.now() < deadline) {
    const now = workersOf(master);
    if (now.length > 0 && !now.some((pid) => old.includes(pid))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const RELOAD_WAIT_MS = 15_000;

function workersOf(master: number): number[] {
  try {
    return readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export const readSiteTemplate = (root: string) => readFileSync(join(root, 'deploy', 'nginx.conf'), 'utf8');
