import { describe, expect, it } from 'vitest';
import { withTwoInstances } from '../support/setup';
import { adultSignup, signUp, uniqueEmail } from '../support/users';

// The limits areas declare (contact messages, CodeLab runs, creators' messages) are counted in the
// shared store like the kernel's: two instances behind one balancer give one count, not one each.
const apps = withTwoInstances({ TRUST_PROXY: '1', RATE_LIMIT_CONTACT: '5', CODELAB_RUNS_PER_MINUTE: '4' });

const message = () => ({
  name: 'Minh',
  email: uniqueEmail('writer'),
  subject: 'Khmer?',
  message: 'Will you add Khmer?',
  website: '',
});

describe('limits an area declares hold across instances', () => {
  it('contact messages: 5 an hour per address, whichever instance takes them (REST and GraphQL)', async () => {
    const from = { headers: { 'x-forwarded-for': '10.77.1.2' } };
    const send = 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }';
    const rest = await Promise.all(
      [apps.first, apps.second, apps.first].map((app) => app.http.post('/contact', message(), from)),
    );
    const graph = await Promise.all(
      [apps.second, apps.first, apps.second].map((app) =>
        app.http.post('/graphql', { query: send, variables: { input: message() } }, from),
      ),
    );
    const accepted =
      rest.filter((r) => r.status === 202).length +
      graph.filter((r) => r.status === 200 && r.body.data?.sendContactMessage?.id).length;
    expect(accepted).toBe(5);
    const refused = [
      ...rest.filter((r) => r.status === 429).map((r) => r.body.error),
      ...graph.flatMap((r) => r.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code) ?? []),
    ];
    expect(refused).toEqual([expect.stringMatching(/^rate_limited$/i)]);
  });

  it(
    'CodeLab runs: CODELAB_RUNS_PER_MINUTE per learner across instances, then 429 with retryAfter',
    { timeout: 120_000 },
    async () => {
      const learner = await signUp(apps.first, adultSignup());
      const run = { language: 'javascript', code: 'console.log(1 + 1)' };
      const replies = await Promise.all(
        [apps.first, apps.second, apps.first, apps.second, apps.first].map((app) =>
          app.http.post('/codelab/run', run, { token: learner.accessToken }),
        ),
      );
      expect(replies.filter((r) => r.status === 200).map((r) => r.body.stdout)).toEqual(['2\n', '2\n', '2\n', '2\n']);
      const refused = replies.find((r) => r.status === 429)!;
      expect(refused.body.error).toBe('rate_limited');
      expect(refused.body.retryAfter).toBeGreaterThan(0);
    },
  );
});
