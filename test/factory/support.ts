import type { Http } from '../support/http';

export const STAGES = ['research', 'outline', 'content', 'quiz', 'safety'];

export const GENERATION = `id topic level ageRange lessonCount status currentStage progress courseId error requestedById decidedById decidedAt createdAt updatedAt
  stages { name status attempts startedAt finishedAt error output providerMs }`;

export const request = (overrides: Record<string, unknown> = {}) => ({
  topic: 'Python for young coders',
  level: 'beginner',
  ageRange: '9-12',
  lessonCount: 3,
  ...overrides,
});

/** Polls the status endpoint until the generation is in one of `statuses`. */
export async function waitForStatus(http: Http, token: string, id: string, statuses: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await http.get(`/factory/generations/${id}`, { token });
    if (reply.status !== 200) throw new Error(`status check answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    if (statuses.includes(reply.body.status)) return reply.body;
    if (Date.now() > deadline)
      throw new Error(
        `generation ${id} is ${reply.body.status}, not ${statuses.join('|')}: ${JSON.stringify(reply.body)}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a generation over REST and waits for the end of its pipeline. */
export async function generated(
  http: Http,
  token: string,
  overrides: Record<string, unknown> = {},
  statuses = ['awaiting_approval'],
) {
  const started = await http.post('/factory/generate', request(overrides), { token });
  if (started.status !== 202) throw new Error(`generation not started: ${JSON.stringify(started.body)}`);
  return waitForStatus(http, token, started.body.id, statuses);
}
