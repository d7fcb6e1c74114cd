import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/ports';

let t: TestApp;
let metricsUrl: string;
beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}`;
  t = await startTestApp({ METRICS_PORT: String(port) });
});
afterAll(() => t?.close());

describe('METRICS_PORT', () => {
  it('answers GET /metrics without a token, with the instance counters the API port counted', async () => {
    expect((await t.http.get('/health/live')).status).toBe(200);
    const response = await fetch(`${metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{[^}]*route="\/health\/live"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^outbox_rows\{region="global",state="pending"\} \d+/m);
  });

  it('serves nothing of the API: other paths are 404 and other methods 405, as error objects', async () => {
    for (const path of ['/graphql', '/auth/me', '/health/live', '/']) {
      const response = await fetch(`${metricsUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    }
    const post = await fetch(`${metricsUrl}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('closes with the service', async () => {
    const other = await freePort();
    const app = await startTestApp({ METRICS_PORT: String(other) });
    expect((await fetch(`http://127.0.0.1:${other}/metrics`)).status).toBe(200);
    await app.close();
    await expect(fetch(`http://127.0.0.1:${other}/metrics`)).rejects.toThrow(/fetch failed/);
  });
});
