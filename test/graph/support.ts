import { contentAdmin } from '../learning/support';
import type { TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import type { SmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, signInAdmin, verifiedGuardian } from '../support/users';

/** Who the graph tests ask as: an admin, a content editor, a guardian linked to a learner of 14 (with basic data), and a guardian of nobody. */
export async function graphCast(
  t: TestApp,
  smtp: SmtpServer,
): Promise<Record<'admin' | 'editor' | 'guardian' | 'stranger' | 'learner', SignedIn>> {
  const admin = await signInAdmin(t);
  const editor = await contentAdmin(t);
  const guardian = await verifiedGuardian(t, smtp);
  const stranger = await verifiedGuardian(t, smtp);
  const learner = await withBasicData(t, await learnerOfAge(t, 14));
  await linkFamily(t, guardian, learner);
  return { admin, editor, guardian, stranger, learner };
}
