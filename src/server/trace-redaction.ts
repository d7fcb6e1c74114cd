import type { Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace';

/*
 * What a span may carry out of the process: no personal data, no secret. The instrumentations
 * record what they see (MikroORM writes each value into the SQL it sends, so the statement of a
 * sign-up held the address, the name and the password's hash; a URL's query string can hold a
 * token; an error's message can quote the input), so every span passes through here before it
 * is exported: attributes are kept by name, those not named here are dropped, and the few that
 * carry text are rewritten.
 */

/**
 * Attributes that name what was done, never with what: methods, routes, statuses, operation and
 * field names, the database. The route's template stands for the path (`url.path`), whose ids name
 * people and whose segments can be a code (a certificate's, which shows its holder's name).
 */
const KEPT = new Set([
  'http.request.method',
  'http.request.method_original',
  'http.response.status_code',
  'http.route',
  'url.scheme',
  'server.address',
  'server.port',
  'network.protocol.version',
  'user_agent.original',
  'error.type',
  'graphql.operation.type',
  'graphql.operation.name',
  'graphql.field.name',
  'graphql.field.path',
  'graphql.field.type',
  'graphql.parent.name',
  'db.system.name',
  'db.namespace',
  'db.operation.name',
  'db.response.status_code',
  'db.postgresql.plan',
  'db.postgresql.idle.timeout.millis',
  'db.postgresql.max.client',
]);

/** Attributes kept once rewritten: a statement with placeholders for its values, a URL without its query. */
const REWRITTEN = new Map<string, (text: string) => string | undefined>([
  ['db.query.text', placeholderStatement],
  ['db.statement', placeholderStatement],
  ['url.full', withoutQuery],
]);

/** What an exception event keeps: its type. Its message and stack (whose first line is the message) can quote the input. */
const KEPT_IN_EVENTS = new Set(['exception.type', 'exception.escaped']);

function keptAttributes(
  attributes: Attributes,
  kept: ReadonlySet<string>,
  rewritten: typeof REWRITTEN = new Map(),
): Attributes {
  const result: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    const rewrite = rewritten.get(key);
    const written = kept.has(key) ? value : rewrite && typeof value === 'string' ? rewrite(value) : undefined;
    if (written !== undefined) result[key] = written;
  }
  return result;
}

function withoutQuery(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  parsed.username = parsed.password = parsed.search = parsed.hash = '';
  return parsed.href;
}

/**
 * One lexical unit of PostgreSQL's SQL, tried in this order at each position: a quoted identifier,
 * a comment, a parameter (`$1`), a string constant (with its `E`, `B`, `X`, `N` or `U&` prefix; an
 * `E` string takes backslash escapes), a dollar-quoted string, an identifier or key word (so that
 * the digits of `u0` are not a number), a number, any other character. A constant that does not
 * end runs to the end of the text, and is replaced whole.
 */
const SQL_TOKEN =
  /("(?:[^"]|"")*"?)|(--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(\$\d+)|([Ee]'(?:[^'\\]|\\[\s\S]|'')*'?|(?:[BbXxNn]|[Uu]&)?'(?:[^']|'')*'?|\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$[\s\S]*?(?:\$\5\$|$))|([A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*)|((?:\d+\.?\d*|\.\d+)(?:[Ee][+-]?\d+)?)|([\s\S])/gy;

/**
 * A statement with each constant (string, number, bit string, dollar-quoted text) replaced by a
 * placeholder `$n`, numbered after the statement's own parameters: what is left is what the code
 * wrote, never what a person typed.
 */
export function placeholderStatement(sql: string): string {
  const tokens = [...sql.matchAll(SQL_TOKEN)];
  let next =
    1 + tokens.reduce((highest, token) => (token[3] ? Math.max(highest, Number(token[3].slice(1))) : highest), 0);
  return tokens.map((token) => (token[4] !== undefined || token[7] !== undefined ? `$${next++}` : token[0])).join('');
}

function redactedEvent(event: TimedEvent): TimedEvent {
  return {
    name: event.name,
    time: event.time,
    attributes: event.attributes && keptAttributes(event.attributes, KEPT_IN_EVENTS),
    droppedAttributesCount: event.droppedAttributesCount,
  };
}

/** The span as it may leave the process: kept attributes, events without messages, a status without its message. */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    ended: span.ended,
    status: { code: span.status.code },
    attributes: keptAttributes(span.attributes, KEPT, REWRITTEN),
    links: span.links.map((link) => ({ context: link.context })),
    events: span.events.map(redactedEvent),
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** An exporter that sends only redacted spans, through `sender`. */
export class RedactingExporter implements SpanExporter {
  constructor(private readonly sender: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.sender.export(spans.map(redactedSpan), done);
  }

  shutdown(): Promise<void> {
    return this.sender.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.sender.forceFlush?.() ?? Promise.resolve();
  }
}
