import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Deps } from '../../kernel/deps';
import { Role } from '../../kernel/domain';
import type { RouteRule } from '../../kernel/area';
import { hasRole } from '../../permissions/rules';
import { isDirectFromLoopback } from '../chain/caller';
import { routeContextOf } from '../steps';
import { metricsOf } from './registry';

/**
 * `GET /metrics`, Prometheus's text format, for this instance alone. A scraper on the machine
 * (loopback) reads it as is; from elsewhere only an admin does (a Bearer token of an active admin
 * account): the metrics tell the load, the routes and the operation names in use. A request that
 * came through a proxy is never local, even from a proxy on this machine (isDirectFromLoopback).
 */
export function metricsEndpoint(deps: Deps): RequestHandler {
  const scrape = scraper(deps);
  const context = routeContextOf(deps);
  return async (req, res) => {
    if (!isDirectFromLoopback(req)) await context(req, adminsOnly);
    await scrape(res);
  };
}

/** Refreshes the gauges read at scrape time and writes the registry's text. */
export function scraper(deps: Deps): (res: ServerResponse) => Promise<void> {
  const metrics = metricsOf(deps);
  return async (res) => {
    await Promise.all(metrics.beforeScrape.map(async (refresh) => refresh()));
    const text = await metrics.registry.metrics();
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
  };
}

/** The shield rule of admins, as GraphQL runs it: the account as stored now, suspension and ended sessions included. */
const adminsOnly: RouteRule = { rule: hasRole(Role.admin), field: 'Query.metrics' };
