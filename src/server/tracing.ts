/**
 * OpenTelemetry tracing: on when OTEL_EXPORTER_OTLP_ENDPOINT is set, and then imported by main.ts
 * before anything else, since the instrumentations patch `http`, `pg` and `graphql` as they are
 * first required. Unset, the SDK is never loaded: no patch, no span, no cost. A malformed endpoint
 * leaves tracing off here and is reported by loadConfig, as any bad setting is.
 */
export interface Tracing {
  /** Sends the spans still buffered; part of shutdown. */
  stop(): Promise<void>;
}

const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

export const tracing: Tracing =
  endpoint && URL.canParse(endpoint)
    ? // A require, not an import: an import would load the SDK whether tracing is on or not.
      (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing(
        process.env.OTEL_SERVICE_NAME || 'learning-platform-api',
      )
    : { stop: () => Promise.resolve() };
