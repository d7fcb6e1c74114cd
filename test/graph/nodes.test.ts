import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendDueReports } from '../../src/guardian-reports';
import { homeOf } from '../support/regions';
import { buy, checkout, creatorAccount, publishedProduct, subscriptionBody, text } from '../support/commerce';
import { request as generationRequest } from '../factory/support';
import type { TestApp } from '../support/app';
import type { GqlError } from '../support/http';
import { notify } from '../support/notify';
import { withMailAndApp } from '../support/setup';
import { graphCast } from './support';
import type { SmtpServer } from '../support/smtp';
import { fewestStatements } from '../support/sql';
import { publishedCourse } from '../learning/support';
import { adultSignup, type SignedIn, signUp, uniqueEmail } from '../support/users';

// Object identification for the types that joined Node with this round's areas: each one answered
// by node(id:) to whom its own read shows it, with its fields, and to anyone else exactly as an id
// that names nothing; nodes(ids:) in order, and at the cost of one id of each type however many.
// Contact messages are limited per IP: each one here comes from an address of its own.
const ctx = withMailAndApp({ TRUST_PROXY: '1' });
let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
let editor: SignedIn;
let guardian: SignedIn;
let stranger: SignedIn;
let learner: SignedIn;
let buyer: SignedIn;
let teacher: SignedIn;
let creator: SignedIn;
let otherCreator: SignedIn;

const freshIp = () => `10.${randomInt(255)}.${randomInt(255)}.${randomInt(1, 255)}`;

/** What each node type shows through node(id:): a field of its own besides the id. */
const FIELDS = `__typename id
  ... on ConsentLedgerEntryView { subjectId consentTypeId consentAction: action }
  ... on Refund { paymentId reason }
  ... on PurchaseRequest { learnerId productId requestStatus: status }
  ... on Entitlement { entitlementKind: kind tier source }
  ... on School { name country }
  ... on SchoolClass { name schoolId joinCode }
  ... on CreatorCourse { creatorId draftStatus: status lessons { id } }
  ... on CreatorLesson { position title { en } }
  ... on CourseGeneration { topic requestedById }
  ... on GdprRequest { gdprKind: kind subjectId requesterId }
  ... on ContactMessage { email subject }
  ... on GuardianReport { reportKind: kind learnerId }
  ... on AuditEntryView { auditAction: action targetId }
  ... on RoleChangeView { role roleAction: action }
  ... on Notification { type }
  ... on Product { productStatus: status }
  ... on User { displayName }
  ... on Project { projectTitle: title }`;
const NODE = `query($id: ID!) { node(id: $id) { ${FIELDS} } }`;
const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { ${FIELDS} } }`;

const node = (id: string, who?: SignedIn) => t.http.gql(NODE, { id }, who?.accessToken);
/** The answer without where it points: what a caller could compare between two ids. */
const shape = (errors: GqlError[] | undefined) =>
  (errors ?? []).map((e) => ({ message: e.message, extensions: e.extensions }));

interface Case {
  type: string;
  id: string;
  /** Fields node(id:) answers, beyond __typename and id. */
  fields: Record<string, unknown>;
  /** Who sees it. */
  seenBy: [string, SignedIn][];
  /** Who does not (undefined: a caller without a token). */
  hiddenFrom: [string, SignedIn | undefined][];
}
let cases: Case[];

beforeAll(async () => {
  ({ t, smtp } = ctx);
  ({ admin, editor, guardian, stranger, learner } = await graphCast(t, smtp));
  buyer = await signUp(t, adultSignup({ email: uniqueEmail('buyer') }));
  teacher = await signUp(t, adultSignup({ email: uniqueEmail('teacher') }));
  creator = await creatorAccount(t);
  otherCreator = await creatorAccount(t);

  // The consent ledger: the guardian grants progress_sharing for the learner.
  expect(
    (
      await t.http.post(
        '/consent/grant',
        { consentTypeId: 'progress_sharing', learnerId: learner.id },
        { token: guardian.accessToken },
      )
    ).status,
  ).toBe(200);
  const ledger = await t.http.gql(
    'query($id: ID) { consentLedger(learnerId: $id) { id consentTypeId } }',
    { id: learner.id },
    guardian.accessToken,
  );
  const entry = ledger.body.data.consentLedger.find(
    (e: { consentTypeId: string }) => e.consentTypeId === 'PROGRESS_SHARING',
  );

  // Commerce: a paid payment and its refund; the learner's request to buy; an entitlement granted.
  const product = await publishedProduct(t, admin);
  const payment = await buy(t, buyer, product);
  const refund = await t.http.post(
    '/refunds',
    { paymentId: payment.id, amount: 1000, reason: 'changed my mind' },
    { token: buyer.accessToken },
  );
  expect(refund.status).toBe(201);
  const asked = await checkout(t, learner, { productId: product.id, priceId: product.prices[0].id });
  expect(asked.status).toBe(202);
  const granted = await t.http.post(
    '/entitlements/grants',
    { userId: learner.id, kind: 'tier', tier: 'pro' },
    { token: admin.accessToken },
  );
  expect(granted.status).toBe(201);

  // A school with a teacher, and a class of theirs the learner joins.
  const school = await t.http.post('/school', { name: 'Node school', country: 'VN' }, { token: admin.accessToken });
  await t.http.post(
    `/school/${school.body.id}/members`,
    { email: teacher.email, role: 'teacher' },
    { token: admin.accessToken },
  );
  const schoolClass = await t.http.post(
    `/school/${school.body.id}/classes`,
    { name: '8A' },
    { token: teacher.accessToken },
  );
  expect(
    (await t.http.post('/school/join', { code: schoolClass.body.joinCode }, { token: learner.accessToken })).status,
  ).toBe(201);

  // A creator's draft with a lesson.
  const draft = await t.http.post(
    '/creator/courses',
    { title: text('Scratch games'), description: text('Make a game'), level: 'beginner', minAge: 8, maxAge: 14 },
    { token: creator.accessToken },
  );
  const lesson = await t.http.post(
    `/creator/courses/${draft.body.id}/lessons`,
    {
      title: text('Sprites'),
      objectives: { en: ['Move a sprite'], vi: ['Di chuyển nhân vật'] },
      content: text('Sprites move with blocks.'),
      quiz: [
        {
          prompt: text('Which block moves?'),
          options: [text('move'), text('say')],
          answerIndex: 0,
          explanation: text('move moves.'),
        },
      ],
    },
    { token: creator.accessToken },
  );
  expect(lesson.status).toBe(201);

  // The course factory, privacy, the contact form, the guardian's weekly report, the audit trail and role changes.
  const generation = await t.http.post('/factory/generate', generationRequest({ topic: 'Node ids for kids' }), {
    token: editor.accessToken,
  });
  expect(generation.status).toBe(202);
  const gdpr = await t.http.post('/gdpr/export', { learnerId: learner.id }, { token: guardian.accessToken });
  expect(gdpr.status).toBe(202);
  const writer = uniqueEmail('writer');
  const contact = await t.http.post(
    '/contact',
    { name: 'Minh', email: writer, subject: 'Node ids?', message: 'Are ids the same in REST?' },
    { headers: { 'x-forwarded-for': freshIp() } },
  );
  expect(contact.status).toBe(202);
  await sendDueReports(await homeOf(t, guardian.id), new Date('2026-11-23T02:00:00Z'));
  const reports = await t.http.gql('{ guardianReports { nodes { id learnerId kind } } }', {}, guardian.accessToken);
  const report = reports.body.data.guardianReports.nodes.find((r: { learnerId: string }) => r.learnerId === learner.id);
  const audit = await t.http.gql(
    '{ auditEntries(first: 1, action: "school.created") { nodes { id targetId } } }',
    {},
    admin.accessToken,
  );
  const roleChanges = await t.http.gql(
    'query($email: String) { users(first: 1, filter: { email: $email }) { nodes { roleChanges { id role } } } }',
    { email: editor.email },
    admin.accessToken,
  );

  cases = [
    {
      type: 'ConsentLedgerEntryView',
      id: entry.id,
      fields: { subjectId: learner.id, consentTypeId: 'PROGRESS_SHARING', consentAction: 'GRANTED' },
      seenBy: [
        ['the learner', learner],
        ['their guardian', guardian],
        ['an admin', admin],
      ],
      hiddenFrom: [
        ['another guardian', stranger],
        ['a teacher', teacher],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'Refund',
      id: refund.body.id,
      fields: { paymentId: payment.id, reason: 'changed my mind' },
      seenBy: [
        ['the payer', buyer],
        ['an admin', admin],
      ],
      hiddenFrom: [
        ['another account', teacher],
        ['a guardian', guardian],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'PurchaseRequest',
      id: asked.body.purchaseRequest.id,
      fields: { learnerId: learner.id, productId: product.id, requestStatus: 'PENDING' },
      seenBy: [
        ['the learner', learner],
        ['their guardian', guardian],
      ],
      hiddenFrom: [
        ['another guardian', stranger],
        ['the buyer of another payment', buyer],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'Entitlement',
      id: granted.body.id,
      fields: { entitlementKind: 'TIER', tier: 'PRO', source: 'GRANT' },
      // myEntitlements is the account's own: not even the admin who granted it or a guardian reads it by id.
      seenBy: [['the learner', learner]],
      hiddenFrom: [
        ['the admin who granted it', admin],
        ['their guardian', guardian],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'School',
      id: school.body.id,
      fields: { name: 'Node school', country: 'VN' },
      seenBy: [
        ['its teacher', teacher],
        ['an admin', admin],
      ],
      hiddenFrom: [
        ['a learner of one of its classes', learner],
        ['a guardian', guardian],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'SchoolClass',
      id: schoolClass.body.id,
      fields: { name: '8A', schoolId: school.body.id, joinCode: schoolClass.body.joinCode },
      seenBy: [
        ['its teacher', teacher],
        ['an admin', admin],
      ],
      hiddenFrom: [
        ['a learner in it (the join code is staff-only)', learner],
        ['a guardian', guardian],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'CreatorCourse',
      id: draft.body.id,
      fields: { creatorId: creator.id, draftStatus: 'DRAFT', lessons: [{ id: lesson.body.id }] },
      seenBy: [['its creator', creator]],
      hiddenFrom: [
        ['another creator', otherCreator],
        ['a content admin, while it is a draft', editor],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'CreatorLesson',
      id: lesson.body.id,
      fields: { position: 1, title: { en: 'Sprites' } },
      seenBy: [['its creator', creator]],
      hiddenFrom: [
        ['another creator', otherCreator],
        ['a content admin, while it is a draft', editor],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'CourseGeneration',
      id: generation.body.id,
      fields: { topic: 'Node ids for kids', requestedById: editor.id },
      seenBy: [
        ['the content admin', editor],
        ['an admin', admin],
      ],
      hiddenFrom: [
        ['a creator', creator],
        ['a learner', learner],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'GdprRequest',
      id: gdpr.body.id,
      fields: { gdprKind: 'EXPORT', subjectId: learner.id, requesterId: guardian.id },
      seenBy: [
        ['the guardian who asked', guardian],
        ['the learner it concerns', learner],
      ],
      hiddenFrom: [
        ['another guardian', stranger],
        ['an admin (who has adminGdprRequests, not this read)', admin],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'ContactMessage',
      id: contact.body.id,
      fields: { email: writer, subject: 'Node ids?' },
      seenBy: [['an admin', admin]],
      hiddenFrom: [
        ['a content admin', editor],
        ['a guardian', guardian],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'GuardianReport',
      id: report.id,
      fields: { reportKind: 'WEEKLY', learnerId: learner.id },
      seenBy: [['the guardian it was sent to', guardian]],
      hiddenFrom: [
        ['another guardian', stranger],
        ['the learner it is about', learner],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'AuditEntryView',
      id: audit.body.data.auditEntries.nodes[0].id,
      fields: { auditAction: 'school.created', targetId: school.body.id },
      seenBy: [['an admin', admin]],
      hiddenFrom: [
        ['a content admin', editor],
        ['a teacher of the school', teacher],
        ['anonymous', undefined],
      ],
    },
    {
      type: 'RoleChangeView',
      id: roleChanges.body.data.users.nodes[0].roleChanges[0].id,
      fields: { role: 'CONTENT_ADMIN', roleAction: 'GRANTED' },
      seenBy: [['an admin', admin]],
      hiddenFrom: [
        ['the account whose role changed', editor],
        ['a guardian', guardian],
        ['anonymous', undefined],
      ],
    },
  ];
}, 120_000);

describe('node(id:) for each type of this round', () => {
  it('answers each node with its type and fields to whom its own read shows it', async () => {
    for (const { type, id, fields, seenBy } of cases) {
      for (const [who, caller] of seenBy) {
        const reply = await node(id, caller);
        expect(reply.body.errors, `${type} for ${who}`).toBeUndefined();
        expect(reply.body.data.node, `${type} for ${who}`).toEqual({ __typename: type, id, ...fields });
      }
    }
  });

  it('answers anyone else null with NOT_FOUND, word for word what an id that names nothing gets', async () => {
    for (const { type, id, hiddenFrom } of cases) {
      for (const [who, caller] of hiddenFrom) {
        const [hidden, unknown] = await Promise.all([node(id, caller), node(randomUUID(), caller)]);
        expect(hidden.status, `${type} for ${who}`).toBe(200);
        expect(hidden.body.data, `${type} for ${who}`).toEqual({ node: null });
        expect(shape(hidden.body.errors), `${type} for ${who}`).toEqual([
          { message: expect.any(String), extensions: { code: 'NOT_FOUND' } },
        ]);
        expect(shape(hidden.body.errors), `${type} for ${who}`).toEqual(shape(unknown.body.errors));
      }
    }
  });

  it('shows a creator course to content admins once it is in review, as the review queue does', async () => {
    const draft = cases.find((c) => c.type === 'CreatorCourse')!;
    expect(
      (await t.http.post(`/creator/courses/${draft.id}/submit`, undefined, { token: creator.accessToken })).status,
    ).toBe(200);
    const reviewed = await node(draft.id, editor);
    expect(reviewed.body.errors).toBeUndefined();
    expect(reviewed.body.data.node).toMatchObject({
      __typename: 'CreatorCourse',
      id: draft.id,
      draftStatus: 'IN_REVIEW',
    });
    expect((await node(draft.id, otherCreator)).body.errors!.map((e) => e.extensions.code)).toEqual(['NOT_FOUND']);
  });
});

describe('nodes(ids:)', () => {
  it('answers visible, invisible, unknown and malformed ids in order, a NOT_FOUND at the place of each one not shown', async () => {
    const of = (type: string) => cases.find((c) => c.type === type)!.id;
    const ids = [
      of('ConsentLedgerEntryView'),
      of('Refund'),
      of('PurchaseRequest'),
      randomUUID(),
      of('GdprRequest'),
      of('School'),
      'not-an-id',
      of('GuardianReport'),
      learner.id,
      of('GdprRequest'),
    ];
    const reply = await t.http.gql(NODES, { ids }, guardian.accessToken);
    expect(reply.status).toBe(200);
    expect(
      reply.body.data.nodes.map((n: { __typename: string; id: string } | null) => n && `${n.__typename}:${n.id}`),
    ).toEqual([
      `ConsentLedgerEntryView:${ids[0]}`,
      null,
      `PurchaseRequest:${ids[2]}`,
      null,
      `GdprRequest:${ids[4]}`,
      null,
      null,
      `GuardianReport:${ids[7]}`,
      `User:${learner.id}`,
      `GdprRequest:${ids[4]}`,
    ]);
    expect(reply.body.errors!.map((e) => [(e as GqlError & { path: unknown[] }).path, e.extensions.code])).toEqual([
      [['nodes', 1], 'NOT_FOUND'],
      [['nodes', 3], 'NOT_FOUND'],
      [['nodes', 5], 'NOT_FOUND'],
      [['nodes', 6], 'NOT_FOUND'],
    ]);
    // The refused ones and the unknown one read alike.
    expect(new Set(reply.body.errors!.map((e) => e.message)).size).toBe(1);
  });

  it('reads each type once: 20 ids of each of five types cost the statements of one id of each', async () => {
    const many: Record<string, string[]> = {
      School: [],
      SchoolClass: [],
      AuditEntryView: [],
      ContactMessage: [],
      Notification: [],
    };
    for (let i = 0; i < 20; i++) {
      const school = await t.http.post(
        '/school',
        { name: `Batch school ${i}`, country: 'VN' },
        { token: admin.accessToken },
      );
      many.School.push(school.body.id);
      many.SchoolClass.push(
        (await t.http.post(`/school/${school.body.id}/classes`, { name: `B${i}` }, { token: admin.accessToken })).body
          .id,
      );
      const sent = await t.http.post(
        '/contact',
        { name: 'Minh', email: uniqueEmail('batch'), subject: `Batch ${i}`, message: 'Hello' },
        { headers: { 'x-forwarded-for': freshIp() } },
      );
      many.ContactMessage.push(sent.body.id);
    }
    many.Notification = (await notify(t, admin.id, 'system', 20)).map((n) => n!.id);
    const audit = await t.http.gql(
      '{ auditEntries(first: 20, action: "school.created") { nodes { id } } }',
      {},
      admin.accessToken,
    );
    many.AuditEntryView = audit.body.data.auditEntries.nodes.map((n: { id: string }) => n.id);
    const { single, twenty } = await oneAndTwenty(many, admin);
    expect(twenty.count).toBe(single.count);
  }, 60_000);

  it("reads each type once for a guardian too: 20 of a learner's private projects, ledger entries and own notifications cost what one of each costs", async () => {
    const many: Record<string, string[]> = { Project: [], ConsentLedgerEntryView: [], Notification: [] };
    for (let i = 0; i < 20; i++) {
      const project = await t.http.post(
        '/projects',
        {
          title: `Mine ${i}`,
          description: '',
          language: 'javascript',
          files: [{ path: 'main.js', content: 'console.log(1)' }],
          visibility: 'private',
        },
        { token: learner.accessToken },
      );
      many.Project.push(project.body.id);
      const change = i % 2 === 0 ? 'revoke' : 'grant';
      expect(
        (
          await t.http.post(
            `/consent/${change}`,
            { consentTypeId: 'progress_sharing', learnerId: learner.id },
            { token: guardian.accessToken },
          )
        ).status,
      ).toBe(200);
    }
    const ledger = await t.http.gql(
      'query($id: ID) { consentLedger(learnerId: $id) { id } }',
      { id: learner.id },
      guardian.accessToken,
    );
    many.ConsentLedgerEntryView = ledger.body.data.consentLedger.slice(0, 20).map((e: { id: string }) => e.id);
    many.Notification = (await notify(t, guardian.id, 'system', 20)).map((n) => n!.id);
    const { single, twenty } = await oneAndTwenty(many, guardian);
    expect(twenty.count).toBe(single.count);
  }, 60_000);
  it("reads lessons once: 20 of a course's lessons cost what one costs, each lesson's rule (its course open to the caller) included", async () => {
    const free = await publishedCourse(t, editor, {}, 20);
    const bought = await publishedCourse(t, editor, {}, 20);
    const product = await publishedProduct(t, admin, {
      ...subscriptionBody(),
      kind: 'course',
      tier: null,
      prices: [{ currency: 'USD', amount: 500 }],
      courseIds: [bought.id],
    });
    const buyer = await signUp(t, adultSignup());
    await buy(t, buyer, product);
    for (const course of [free, bought]) {
      const { single, twenty } = await oneAndTwenty({ Lesson: course.lessonIds }, buyer);
      expect(twenty.count).toBe(single.count);
    }
  }, 60_000);
});

/** nodes(ids:) with the first id of each type, then with all of them: the answers and their SQL statements. */
async function oneAndTwenty(many: Record<string, string[]>, caller: SignedIn) {
  for (const [type, ids] of Object.entries(many)) expect(ids, type).toHaveLength(20);
  const run = async (ids: string[]) => {
    const reply = await t.http.gql(NODES, { ids }, caller.accessToken);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.nodes.map((n: { id: string }) => n.id)).toEqual(ids);
    return reply.body.data.nodes.map((n: { __typename: string }) => n.__typename);
  };
  const single = await fewestStatements(t, () => run(Object.values(many).map((ids) => ids[0])));
  const twenty = await fewestStatements(t, () => run(Object.values(many).flat()));
  expect(single.result).toEqual(Object.keys(many));
  expect(twenty.result).toEqual(Object.keys(many).flatMap((type) => Array<string>(20).fill(type)));
  return { single, twenty };
}
