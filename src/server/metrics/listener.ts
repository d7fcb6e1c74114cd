import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../kernel/deps';
import { scraper } from './endpoint';

/**
 * `METRICS_PORT`: a listener that answers `GET /metrics` and nothing else, without a token. The API's
 * port keeps its rule (loopback or an admin); this one is for a scraper in another pod or host, and
 * who may reach it is the network's decision (in Kubernetes, a NetworkPolicy that admits only the
 * monitoring namespace to this port). It carries no personal data, only the instance's counters.
 */
export function metricsListener(deps: Deps): {
  listen(port: number, host?: string): Promise<AddressInfo>;
  close(): Promise<void>;
} {
  const scrape = scraper(deps);
  const server: Server = createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'not_found', 'This port answers only GET /metrics');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return answer(res, 405, 'method_not_allowed', 'GET /metrics only');
    }
    scrape(res).catch(() => answer(res, 500, 'internal_error', 'The metrics could not be read'));
  });
  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(server.address() as AddressInfo));
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function answer(res: ServerResponse, status: number, error: string, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error, message }));
}
