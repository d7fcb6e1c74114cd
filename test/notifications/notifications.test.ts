import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { notify } from '../support/notify';
import { adultSignup, type SignedIn, signUp } from '../support/users';
import { homeOf } from '../support/regions';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const FIELDS = 'id type title body data read readAt createdAt';

async function inbox(n: number, overrides: Record<string, unknown> = {}): Promise<SignedIn> {
  const user = await signUp(t, adultSignup(overrides));
  await notify(t, user.id, 'system', n);
  return user;
}

describe('GET /notifications and { notifications }', () => {
  it("lists the caller's notifications newest first, in their locale, in pages", async () => {
    const user = await inbox(5, { locale: 'vi' });
    const first = await t.http.get('/notifications?limit=2', { token: user.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toEqual({
      id: expect.any(String),
      type: 'system',
      title: 'Tiêu đề 4',
      body: 'Nội dung 4',
      data: { index: 4 },
      read: false,
      readAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    const rest = await t.http.get(`/notifications?limit=10&cursor=${first.body.nextCursor}`, {
      token: user.accessToken,
    });
    expect(rest.body.items.map((n: { title: string }) => n.title)).toEqual(['Tiêu đề 2', 'Tiêu đề 1', 'Tiêu đề 0']);
    expect(rest.body.nextCursor).toBeNull();

    const PAGE = `query($after: String) { notifications(first: 3, after: $after) { totalCount edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const gql = await t.http.gql(PAGE, {}, user.accessToken);
    const page1 = gql.body.data.notifications;
    expect(page1.edges).toHaveLength(3);
    expect(page1.totalCount).toBe(5);
    expect(page1.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: page1.edges[0].cursor,
      endCursor: page1.edges[2].cursor,
    });
    const page2 = (await t.http.gql(PAGE, { after: page1.pageInfo.endCursor }, user.accessToken)).body.data
      .notifications;
    expect(page2.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual(['Tiêu đề 1', 'Tiêu đề 0']);
    expect(page2.totalCount).toBe(5);
    expect(page2.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: page2.edges[0].cursor,
      endCursor: page2.edges[1].cursor,
    });
  });

  it('filters unread, read and all', async () => {
    const user = await inbox(3);
    const [latest] = (await t.http.get('/notifications', { token: user.accessToken })).body.items;
    await t.http.post(`/notifications/${latest.id}/read`, undefined, { token: user.accessToken });
    const count = async (filter: string) =>
      (await t.http.get(`/notifications?filter=${filter}`, { token: user.accessToken })).body.items.length;
    expect(await count('unread')).toBe(2);
    expect(await count('read')).toBe(1);
    expect(await count('all')).toBe(3);
    const gql = await t.http.gql(
      '{ notifications(filter: READ) { totalCount edges { node { id read } } } }',
      {},
      user.accessToken,
    );
    expect(gql.body.data.notifications).toEqual({ totalCount: 1, edges: [{ node: { id: latest.id, read: true } }] });
  });

  it('refuses a bad filter or page size with 400 and details', async () => {
    const user = await inbox(0);
    for (const query of ['filter=starred', 'limit=0', 'limit=500', 'cursor=garbage']) {
      const reply = await t.http.get(`/notifications?${query}`, { token: user.accessToken });
      expect(reply.status, query).toBe(400);
      expect(reply.body.error).toBe('validation_failed');
      expect(reply.body.details.length).toBeGreaterThan(0);
    }
  });

  it("never shows another user's notifications", async () => {
    await inbox(3);
    const other = await inbox(0);
    expect((await t.http.get('/notifications', { token: other.accessToken })).body.items).toEqual([]);
  });
});

describe('reading, counting and deleting', () => {
  it('follows the state table: read lowers the count, read-all makes it zero, delete removes', async () => {
    const user = await inbox(4);
    const token = user.accessToken;
    const unread = async () => (await t.http.get('/notifications/unread-count', { token })).body;
    expect(await unread()).toEqual({ count: 4 });

    const [one, two] = (await t.http.get('/notifications', { token })).body.items;
    const read = await t.http.post(`/notifications/${one.id}/read`, undefined, { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: one.id, read: true, readAt: expect.any(String) });
    expect(await unread()).toEqual({ count: 3 });

    // Reading it again is harmless and keeps the first read time.
    const again = await t.http.post(`/notifications/${one.id}/read`, undefined, { token });
    expect(again.status).toBe(200);
    expect(again.body.readAt).toBe(read.body.readAt);
    expect(await unread()).toEqual({ count: 3 });

    const deleted = await t.http.delete(`/notifications/${two.id}`, { token });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(await unread()).toEqual({ count: 2 });
    expect((await t.http.delete(`/notifications/${two.id}`, { token })).status).toBe(404);

    const all = await t.http.post('/notifications/read-all', undefined, { token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ updated: 2 });
    expect(await unread()).toEqual({ count: 0 });
    expect((await t.http.post('/notifications/read-all', undefined, { token })).body).toEqual({ updated: 0 });
    expect((await t.http.get('/notifications', { token })).body.items).toHaveLength(3);
  });

  it('does the same in GraphQL', async () => {
    const user = await inbox(3);
    const token = user.accessToken;
    const count = async () =>
      (await t.http.gql('{ unreadNotificationCount { count } }', {}, token)).body.data.unreadNotificationCount.count;
    expect(await count()).toBe(3);
    const ids = (
      await t.http.gql('{ notifications { edges { node { id } } } }', {}, token)
    ).body.data.notifications.edges.map((e: { node: { id: string } }) => e.node.id);
    const read = await t.http.gql(
      'mutation($id: ID!) { markNotificationRead(id: $id) { id read } }',
      { id: ids[0] },
      token,
    );
    expect(read.body.data.markNotificationRead).toEqual({ id: ids[0], read: true });
    expect(await count()).toBe(2);
    const removed = await t.http.gql('mutation($id: ID!) { deleteNotification(id: $id) }', { id: ids[1] }, token);
    expect(removed.body.data.deleteNotification).toBe(true);
    const all = await t.http.gql('mutation { markAllNotificationsRead { updated } }', {}, token);
    expect(all.body.data.markAllNotificationsRead).toEqual({ updated: 1 });
    expect(await count()).toBe(0);
  });

  it("answers 404 for another user's notification, an unknown id and a malformed id", async () => {
    const owner = await inbox(1);
    const stranger = await inbox(0);
    const [theirs] = (await t.http.get('/notifications', { token: owner.accessToken })).body.items;
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const read = await t.http.post(`/notifications/${id}/read`, undefined, { token: stranger.accessToken });
      expect(read.status, id).toBe(404);
      expect(read.body.error).toBe('not_found');
      expect((await t.http.delete(`/notifications/${id}`, { token: stranger.accessToken })).status).toBe(404);
    }
    const gql = await t.http.gql(
      'mutation($id: ID!) { markNotificationRead(id: $id) { id } }',
      { id: theirs.id },
      stranger.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    // Still unread for its owner.
    expect((await t.http.get('/notifications/unread-count', { token: owner.accessToken })).body).toEqual({ count: 1 });
  });

  it('keeps the count right when many are read at once', async () => {
    const user = await inbox(20);
    const items = (await t.http.get('/notifications?limit=20', { token: user.accessToken })).body.items;
    await Promise.all([
      ...items.map((n: { id: string }) =>
        t.http.post(`/notifications/${n.id}/read`, undefined, { token: user.accessToken }),
      ),
      t.http.post('/notifications/read-all', undefined, { token: user.accessToken }),
    ]);
    expect((await t.http.get('/notifications/unread-count', { token: user.accessToken })).body).toEqual({ count: 0 });
  });
});

describe('the unread count under concurrent changes', () => {
  it('always equals the unread notifications stored', async () => {
    const user = await inbox(10);
    const items = (await t.http.get('/notifications?limit=10', { token: user.accessToken })).body.items;
    await Promise.all([
      notify(t, user.id, 'system', 15),
      ...items
        .slice(0, 4)
        .map((n: { id: string }) => t.http.post(`/notifications/${n.id}/read`, undefined, { token: user.accessToken })),
      ...items
        .slice(4, 7)
        .map((n: { id: string }) => t.http.delete(`/notifications/${n.id}`, { token: user.accessToken })),
    ]);
    const [{ stored }] = await (
      await homeOf(t, user.id)
    ).orm.em
      .getConnection()
      .execute('select count(*)::int as stored from notifications where user_id = ? and read_at is null', [user.id]);
    expect(stored).toBe(18);
    expect((await t.http.get('/notifications/unread-count', { token: user.accessToken })).body).toEqual({
      count: stored,
    });
  });
});

describe('settings', () => {
  it('turns types off in REST and GraphQL; a disabled type is not created', async () => {
    const user = await inbox(0);
    const token = user.accessToken;
    const everything = { weeklyReport: true, monthlyReport: true, inactivityAlert: true };
    expect((await t.http.get('/notifications/settings', { token })).body).toEqual({ disabledTypes: [], ...everything });
    const put = await t.http.put(
      '/notifications/settings',
      { disabledTypes: ['progress', 'system', 'progress'] },
      { token },
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ disabledTypes: ['progress', 'system'], ...everything });
    // Only what is given changes: a report toggle leaves the types as they are, and the other way round.
    expect((await t.http.put('/notifications/settings', { inactivityAlert: false }, { token })).body).toEqual({
      disabledTypes: ['progress', 'system'],
      ...everything,
      inactivityAlert: false,
    });

    expect(await notify(t, user.id, 'system')).toEqual([null]);
    await notify(t, user.id, 'certificate');
    const items = (await t.http.get('/notifications', { token })).body.items;
    expect(items.map((n: { type: string }) => n.type)).toEqual(['certificate']);

    const gql = await t.http.gql(
      'mutation { updateNotificationSettings(input: { disabledTypes: [] }) { disabledTypes } }',
      {},
      token,
    );
    expect(gql.body.data.updateNotificationSettings.disabledTypes).toEqual([]);
    await notify(t, user.id, 'system');
    expect(
      (await t.http.gql('{ notificationSettings { disabledTypes } unreadNotificationCount { count } }', {}, token)).body
        .data,
    ).toEqual({
      notificationSettings: { disabledTypes: [] },
      unreadNotificationCount: { count: 2 },
    });
  });

  it('refuses unknown types and bad bodies with 400 and details', async () => {
    const user = await inbox(0);
    const nothing = await t.http.put('/notifications/settings', {}, { token: user.accessToken });
    expect(nothing.status).toBe(400);
    expect(nothing.body.details[0].field).toBe('body');
    for (const body of [{ disabledTypes: ['spam'] }, { disabledTypes: [null] }, { disabledTypes: [1] }]) {
      const reply = await t.http.put('/notifications/settings', body, { token: user.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toBe('validation_failed');
      expect(reply.body.details[0].field).toMatch(/disabledTypes/);
    }
  });
});

describe('without a token', () => {
  it.each([
    ['GET', '/notifications'],
    ['GET', '/notifications/unread-count'],
    ['POST', '/notifications/read-all'],
    ['POST', '/notifications/00000000-0000-4000-8000-000000000000/read'],
    ['DELETE', '/notifications/00000000-0000-4000-8000-000000000000'],
    ['GET', '/notifications/settings'],
    ['PUT', '/notifications/settings'],
  ])('%s %s answers 401', async (method, path) => {
    const reply = await t.http.rest(method, path, method === 'PUT' ? { body: { disabledTypes: [] } } : {});
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe('unauthenticated');
  });

  it('GraphQL answers UNAUTHENTICATED', async () => {
    const reply = await t.http.gql('{ unreadNotificationCount { count } }');
    expect(reply.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
