import type { TestApp } from './app';
import type { SignedIn } from './users';

/** The guardian declares the learner and the learner approves: an active link, as families make one. */
export async function linkFamily(t: TestApp, guardian: SignedIn, learner: SignedIn): Promise<string> {
  const link = await t.http.post('/guardian/declare', { learnerEmail: learner.email }, { token: guardian.accessToken });
  if (link.body.status === 'pending') await t.http.post(`/guardian/links/${link.body.id}/approve`, undefined, { token: learner.accessToken });
  return link.body.id;
}
