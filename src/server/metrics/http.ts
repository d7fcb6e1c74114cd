import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../../kernel/deps';
import { metricsOf } from './registry';

/**
 * Times a request and, once answered, counts it under its route template (`/courses/:id`, never
 * the path with its ids, which would make a series per course). `routeOf` is asked at the end,
 * when express has matched the request.
 */
export function observeRequest(deps: Deps, req: IncomingMessage, res: ServerResponse, routeOf: () => string): void {
  const { httpDuration } = metricsOf(deps);
  const started = performance.now();
  res.once('finish', () => {
    httpDuration.observe(
      { method: req.method ?? 'GET', route: routeOf(), status: String(res.statusCode) },
      (performance.now() - started) / 1000,
    );
  });
}
