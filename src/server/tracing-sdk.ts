import { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Request } from 'express';
import { routeTemplate } from './route-template';
import { RedactingExporter } from './trace-redaction';
import type { Tracing } from './tracing';

/** Paths asked every few seconds by machines (probes, scrapes): their spans would drown the requests of people. */
const UNTRACED = /^\/(metrics|health)(\/|\?|$)/;

/**
 * A trace starts where someone asks something: an HTTP request, or a GraphQL operation over the
 * WebSocket (which no HTTP request carries; the schema's own introspection at start looks the same
 * and is the one span of a start). Work with no such parent is not traced: the job queue's and the
 * outbox's polling (hundreds of statements a minute on an idle instance), the LISTEN connections,
 * the parsing of the REST table's operations at start.
 */
const REQUESTS_ONLY: Sampler = {
  shouldSample: (_context, _traceId, name, kind) => ({
    decision:
      kind === SpanKind.SERVER || name === 'graphql.execute'
        ? SamplingDecision.RECORD_AND_SAMPLED
        : SamplingDecision.NOT_RECORD,
  }),
  toString: () => 'RequestsOnly',
};

/**
 * The SDK, with spans of incoming and outgoing HTTP (a request's named by its route template,
 * `GET /courses/:id`), GraphQL's parse, validation and execution (resolvers that only read a
 * property are left out: a catalog page has thousands) and every SQL statement, sent in batches as
 * OTLP/HTTP JSON to OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces` is added) once redacted
 * (trace-redaction.ts). A `traceparent` header of the caller (W3C) continues its trace.
 */
export function startTracing(serviceName: string): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': serviceName,
      'service.instance.id': `${hostname()}:${process.pid}`,
    }),
    sampler: new ParentBasedSampler({ root: REQUESTS_ONLY }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new RedactingExporter(new OTLPTraceExporter()) })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? ''),
        // Called once the request is answered, when the route that answered it is known.
        applyCustomAttributesOnSpan(span, request) {
          if (!(request instanceof IncomingMessage)) return;
          const route = routeTemplate(request as Request);
          if (route === 'unmatched') return;
          span.setAttribute('http.route', route);
          span.updateName(`${request.method} ${route}`);
        },
      }),
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
      // A statement's parameters are never recorded.
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  return { stop: () => provider.shutdown() };
}
