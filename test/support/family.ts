import { randomUUID } from 'node:crypto';
import { ConsentType } from '../../src/consent';
import { Consent } from '../../src/consent/consent.entity';
import type { TestApp } from './app';
import { homeOf } from './regions';
import type { SmtpServer } from './smtp';
import { learnerOfAge, type SignedIn, verifiedGuardian } from './users';

/** The guardian declares the learner and the learner approves: an active link, as families make one. */
export async function linkFamily(t: TestApp, guardian: SignedIn, learner: SignedIn): Promise<string> {
  // Only a verified account approves a link: as if the learner had followed the
  // verification mail, which test/auth and test/guardian follow for real.
  await (
    await homeOf(t, learner.id)
  ).orm.em
    .getConnection()
    .execute('update users set email_verified_at = coalesce(email_verified_at, now()) where id = ?', [learner.id]);
  const link = await t.http.post('/guardian/declare', { learnerEmail: learner.email }, { token: guardian.accessToken });
  if (link.body.status === 'pending')
    await t.http.post(`/guardian/links/${link.body.id}/approve`, undefined, { token: learner.accessToken });
  return link.body.id;
}

/** A verified guardian and a learner of `age` in `country`, their link active (under 13, the learner names the guardian at sign-up). */
export async function linkedFamily(
  t: TestApp,
  smtp: SmtpServer,
  age: number,
  country: string,
): Promise<{ guardian: SignedIn; learner: SignedIn }> {
  const guardian = await verifiedGuardian(t, smtp, { country });
  const learner = await learnerOfAge(t, age, { country, ...(age < 13 ? { guardianEmail: guardian.email } : {}) });
  await linkFamily(t, guardian, learner);
  return { guardian, learner };
}

/**
 * The guardian's `basic_data` grant as a fixture, for tests about other things whose learners are
 * under their country's consent age (16 in Viet Nam, the default country of these tests): without
 * it they may not enroll or store progress (docs/domain.md). The grant itself, through a linked
 * guardian, is tested in test/consent and test/security/basic-data-consent.
 */
export async function withBasicData<T extends { id: string }>(t: TestApp, learner: T): Promise<T> {
  const em = (await homeOf(t, learner.id)).orm.em.fork();
  await em.upsert(
    Consent,
    {
      id: randomUUID(),
      subject: learner.id,
      type: ConsentType.basic_data,
      guardianGrantedAt: new Date(),
      policyVersion: 1,
      updatedAt: new Date(),
    },
    { onConflictFields: ['subject', 'type'], onConflictAction: 'merge', onConflictMergeFields: ['guardianGrantedAt'] },
  );
  return learner;
}
