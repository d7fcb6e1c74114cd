import { describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { withMailAndApp } from '../support/setup';
import { request, waitForStatus } from './support';

const ctx = withMailAndApp({ FACTORY_MAX_ACTIVE_PER_REQUESTER: '3', FACTORY_OFFLINE_DELAY_MS: '30' });

describe('generations one person may have under way', () => {
  it('lets exactly the limit through under concurrent requests, counts per requester, and frees a place when one finishes', async () => {
    const { http } = ctx.t;
    const [editor, colleague] = [await contentAdmin(ctx.t), await contentAdmin(ctx.t)];
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        http.post('/factory/generate', request({ topic: `Burst ${i}` }), { token: editor.accessToken }),
      ),
    );
    expect(replies.filter((r) => r.status === 202)).toHaveLength(3);
    const refused = replies.filter((r) => r.status === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0].body).toMatchObject({ error: 'limit_reached', message: expect.stringContaining('At most 3') });
    const gql = await http.gql(
      'mutation($input: GenerateCourseInput!) { generateCourse(input: $input) { id } }',
      { input: request() },
      editor.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('LIMIT_REACHED');

    expect((await http.post('/factory/generate', request(), { token: colleague.accessToken })).status).toBe(202);
    const listed = await http.get('/factory/generations?limit=100', { token: editor.accessToken });
    expect(listed.body.items.filter((g: { requestedById: string }) => g.requestedById === editor.id)).toHaveLength(3);

    await waitForStatus(http, editor.accessToken, replies.find((r) => r.status === 202)!.body.id, [
      'awaiting_approval',
    ]);
    expect(
      (await http.post('/factory/generate', request({ topic: 'After one finished' }), { token: editor.accessToken }))
        .status,
    ).toBe(202);
  });
});
