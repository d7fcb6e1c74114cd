import yauzl from 'yauzl';
import type { TestApp } from '../support/app';
import { contentAdmin, publishedCourse } from '../learning/support';
import type { SignedIn } from '../support/users';

/** Every file of a ZIP, read with yauzl. */
export function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Polls a privacy request until its status is one of `statuses`. */
export async function waitForRequest(
  t: TestApp,
  token: string,
  id: string,
  statuses = ['ready', 'failed'],
  timeoutMs = 30_000,
): Promise<Record<string, any>> {
  const start = Date.now();
  for (;;) {
    const reply = await t.http.get(`/gdpr/requests/${id}`, { token });
    if (statuses.includes(reply.body?.status)) return reply.body;
    if (Date.now() - start > timeoutMs) throw new Error(`request ${id} still ${JSON.stringify(reply.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Learning data of a learner in several areas: an enrollment, completions, quiz attempts, a certificate, a consent. */
export async function learningData(t: TestApp, learner: SignedIn): Promise<{ courseId: string }> {
  const editor = await contentAdmin(t);
  const course = await publishedCourse(t, editor);
  await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
  for (const lessonId of course.lessonIds) {
    await t.http.post(`/progress/lessons/${lessonId}/quiz`, { answers: [1, 0] }, { token: learner.accessToken });
    await t.http.post(
      `/progress/lessons/${lessonId}/complete`,
      { timeSpentSeconds: 120 },
      { token: learner.accessToken },
    );
  }
  await t.http.post('/consent/grant', { consentTypeId: 'marketing_email' }, { token: learner.accessToken });
  return { courseId: course.id };
}

export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
