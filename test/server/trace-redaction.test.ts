import { SpanStatusCode } from '@opentelemetry/api';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeholderStatement, RedactingExporter } from '../../src/server/trace-redaction';

/** MikroORM's own writing of values into SQL: what the service sends to PostgreSQL. */
const platform = new PostgreSqlPlatform();

describe('statements in spans', () => {
  it('carry a placeholder where MikroORM wrote any value (text, JSON, a date, bytes, a number)', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).filter((json) => typeof json === 'object' && json !== null && !Array.isArray(json)),
      fc.date({ noInvalidDate: true }),
      fc.uint8Array().map((bytes) => Buffer.from(bytes)),
      fc.nat(),
      fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        const sql = platform.formatQuery(
          'select "u0".* from "users" as "u0" where "u0"."email" = ? and "u0"."display_name" = ? limit 1',
          [a, b],
        );
        // MikroORM writes a space before an E'' string.
        expect(placeholderStatement(sql).replace(/ {2}/g, ' ')).toBe(
          'select "u0".* from "users" as "u0" where "u0"."email" = $1 and "u0"."display_name" = $2 limit $3',
        );
      }),
      { numRuns: 500 },
    );
  });

  it('number the constants after the statement’s own parameters, and keep names, key words and comments', () => {
    expect(placeholderStatement(`update "t1" set a = $2, b = 'x', c = NULL, d = true where id = $1 -- it's done`)).toBe(
      `update "t1" set a = $2, b = $3, c = NULL, d = true where id = $1 -- it's done`,
    );
    expect(placeholderStatement(`select "it's ""quoted""", u0.x from t /* 'no' */ where v = 3.5e-2`)).toBe(
      `select "it's ""quoted""", u0.x from t /* 'no' */ where v = $1`,
    );
  });

  it('replace the other spellings of constants: escaped, bit, Unicode and dollar-quoted', () => {
    expect(
      placeholderStatement(
        `select E'a\\'b''c', B'0101', X'ff', U&'d\\0061t', $$secret$$, $body$it's $$ here$body$, n'x'`,
      ),
    ).toBe('select $1, $2, $3, $4, $5, $6, $7');
  });

  it('replace a constant that does not end, to the end of the text', () => {
    expect(placeholderStatement(`insert into t values ('a', 'it''s a secret)`)).toBe('insert into t values ($1, $2');
  });
});

describe('spans as exported', () => {
  it('keep only what names the work: no path, query string, client address, document, parameters, messages', async () => {
    const exported = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: new RedactingExporter(exported) })],
    });
    const span = provider.getTracer('probe').startSpan('POST /graphql', {
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/graphql',
        'url.path': '/certificates/verify/7Q2X-9KDM',
        'url.query': 'token=secret',
        'url.full': 'https://user:pass@api.example/v1/send?to=a@example.com#x',
        'client.address': '203.0.113.7',
        'graphql.source': 'mutation { login(input: { email: """a@example.com""" }) { accessToken } }',
        'graphql.variables.input.email': 'a@example.com',
        'db.query.text': `select 1 from users where email = 'a@example.com'`,
        'db.postgresql.values': ['a@example.com'],
        'http.request.header.authorization': 'Bearer secret',
      },
    });
    span.recordException(new Error('Variable "$input" got invalid value "a@example.com"'));
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'duplicate key: a@example.com' });
    span.end();
    await provider.forceFlush();

    const [sent] = exported.getFinishedSpans();
    expect(sent.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'url.full': 'https://api.example/v1/send',
      'db.query.text': 'select $1 from users where email = $2',
    });
    expect(sent.events.map((event) => [event.name, event.attributes])).toEqual([
      ['exception', { 'exception.type': 'Error' }],
    ]);
    expect(sent.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(sent.spanContext()).toEqual(span.spanContext());
    await provider.shutdown();
  });
});
