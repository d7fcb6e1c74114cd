import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetRevokedMemories } from '../../src/gdpr';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { learnerOfAge } from '../support/users';

let t: TestApp;
const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
let failuresLeft = 1;
let server: Server;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers });
      if (req.method === 'DELETE' && req.url === '/memory') {
        if (failuresLeft-- > 0) return res.writeHead(500).end();
        return res.writeHead(204).end();
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({
    AI_BACKEND_URL: url,
    AI_BACKEND_SECRET: 'a-secret-of-sixteen-chars',
    GDPR_AI_RETRY_DELAY_MS: '1000',
    GDPR_SWEEP_EVERY: '1 day',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('revoking ai_memory', () => {
  it('asks the AI backend to forget the memory (signed DELETE /memory); a failure is kept and asked again after the backoff', async () => {
    const learner = await learnerOfAge(t, 20);
    expect(
      (await t.http.post('/consent/grant', { consentTypeId: 'ai_memory' }, { token: learner.accessToken })).status,
    ).toBe(200);
    expect(
      (await t.http.post('/consent/revoke', { consentTypeId: 'ai_memory' }, { token: learner.accessToken })).status,
    ).toBe(200);

    // The consent area's event reaches the privacy area after the commit (the outbox): a request to forget, once.
    const home = await homeOf(t, learner.id);
    const sql = (q: string, p: unknown[] = []) => openUnit(home).uow.em.getConnection().execute(q, p);
    const deadline = Date.now() + 10_000;
    while ((await sql(`select 1 from ai_memory_deletions where subject_id = ?`, [learner.id])).length === 0) {
      if (Date.now() > deadline) throw new Error('the revocation never reached the privacy area');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Told again (an outbox row delivered twice after a crash): still one request.
    const [{ ledger_entry_id: entry }] = await sql(
      `select ledger_entry_id from ai_memory_deletions where subject_id = ?`,
      [learner.id],
    );
    await openUnit(home).services.gdpr.memoryRevoked(entry, learner.id);
    expect(await sql(`select 1 from ai_memory_deletions where subject_id = ?`, [learner.id])).toHaveLength(1);

    const now = new Date(Date.now() + 1000);
    expect(await forgetRevokedMemories(home, now)).toBe(0);
    const [failed] = await sql(
      `select status, attempts, last_answer, next_attempt_at from ai_memory_deletions where subject_id = ?`,
      [learner.id],
    );
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_answer: 'upstream_error' });
    expect(new Date(failed.next_attempt_at).getTime()).toBeGreaterThan(now.getTime());
    // Not again before its time.
    expect(await forgetRevokedMemories(home, now)).toBe(0);
    expect(seen.filter((s) => s.path === '/memory')).toHaveLength(1);

    expect(await forgetRevokedMemories(home, new Date(now.getTime() + 2000))).toBe(1);
    const calls = seen.filter((s) => s.path === '/memory');
    expect(calls).toHaveLength(2);
    expect(calls[1].method).toBe('DELETE');
    expect(calls[1].headers['x-ai-user-id']).toBe(learner.id);
    expect(calls[1].headers['x-ai-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    const [done] = await sql(
      `select status, attempts, last_answer, done_at from ai_memory_deletions where subject_id = ?`,
      [learner.id],
    );
    expect(done).toMatchObject({ status: 'done', attempts: 2, last_answer: '2xx' });
    // Done once: never asked again.
    expect(await forgetRevokedMemories(home, new Date(now.getTime() + 3_600_000))).toBe(0);
    expect(seen.filter((s) => s.path === '/memory')).toHaveLength(2);
  });
});
