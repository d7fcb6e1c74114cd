import { hostname } from 'node:os';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Tracing } from './tracing';

/** Paths asked every few seconds by machines (probes, scrapes): their spans would drown the requests of people. */
const UNTRACED = /^\/(metrics|health)(\/|\?|$)/;

/**
 * The SDK, with spans of incoming and outgoing HTTP, GraphQL's parse, validation and execution
 * (resolvers that only read a property are left out: a catalog page has thousands) and every SQL
 * statement, sent in batches as OTLP/HTTP JSON to OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces` is
 * added). A `traceparent` header of the caller (W3C) continues its trace.
 */
export function startTracing(serviceName: string): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.instance.id': `${hostname()}:${process.pid}` }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? '') }),
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
      new PgInstrumentation(),
    ],
  });
  return { stop: () => provider.shutdown() };
}
