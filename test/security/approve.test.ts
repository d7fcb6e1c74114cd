import { Client as PgClient } from 'pg';
import { describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { withMailAndApp } from '../support/setup';
import { settled } from '../support/sql';
import { generated } from '../factory/support';

const ctx = withMailAndApp({ JOBS_PROCESS_EVERY_MS: '200' });

async function count(text: string, params: unknown[]): Promise<number> {
  const pg = new PgClient({ connectionString: ctx.t.databaseUrl });
  await pg.connect();
  try {
    return Number((await pg.query(text, params)).rows[0].count);
  } finally {
    await pg.end();
  }
}

describe('approving a generation twice', () => {
  it('answers 409 conflict for an approved generation, REST and GraphQL', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const done = await generated(http, editor.accessToken, { topic: 'Approve twice', lessonCount: 2 });
    const first = await http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken });
    expect(first.status).toBe(200);
    const second = await http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('conflict');
    const gql = await http.gql(
      'mutation($id: ID!) { approveGeneration(id: $id) { id } }',
      { id: done.id },
      editor.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('CONFLICT');
  });

  it('of five concurrent approvals one answers 200 and four 409, and one course is published', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const done = await generated(http, editor.accessToken, { topic: 'Approve at once', lessonCount: 2 });
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(
      await count(`select count(*) from courses where title->>'en' = $1`, ['Approve at once: a beginner course']),
    ).toBe(1);
    // The requester is told through the outbox: once nothing is left to deliver, exactly one notice.
    await settled(ctx.t);
    expect(await count(`select count(*) from notifications where data->>'generationId' = $1`, [done.id])).toBe(1);
  });
});
