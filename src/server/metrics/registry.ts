import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type Deps, perProcess } from '../../kernel/deps';

const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Seconds: most answers take milliseconds, an AI stream or a report can take many seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The metrics of one instance (each app has its own registry: tests run several apps in a
 * process, and prom-client's global registry would refuse the second one's metrics). Counters and
 * histograms move as requests are answered; the gauges are read when `/metrics` is scraped.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  graphqlOperations: Counter<'operation_type' | 'operation_name'>;
  graphqlErrors: Counter<'operation_type' | 'operation_name'>;
  graphqlDuration: Histogram<'operation_type' | 'operation_name'>;
  gauge(name: string, help: string, labelNames?: string[]): Gauge;
  /** Work that sets gauges just before a scrape is answered. */
  beforeScrape: (() => Promise<void> | void)[];
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges that prom-client names like counters (promtool's lint refuses a gauge ending in _total):
  // each is the sum of the series of `nodejs_active_handles` (and so on) by type, which stay.
  for (const name of GAUGES_NAMED_AS_COUNTERS) registry.removeSingleMetric(name);
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route template (never the raw path) and status; _count counts them',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    graphqlOperations: new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations over HTTP (the REST table runs its operations too), by operation type and name',
      labelNames: ['operation_type', 'operation_name'],
      registers,
    }),
    graphqlErrors: new Counter({
      name: 'graphql_operation_errors_total',
      help: 'GraphQL operations whose answer carried at least one error, by operation type and name',
      labelNames: ['operation_type', 'operation_name'],
      registers,
    }),
    graphqlDuration: new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'Time from receiving a GraphQL operation to its answer, by operation type and name',
      labelNames: ['operation_type', 'operation_name'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    gauge: (name, help, labelNames = []) => new Gauge({ name, help, labelNames, registers }),
    beforeScrape: [],
  };
}

export const metricsOf = perProcess((_deps: Deps) => createMetrics());
