import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from './app';
import { type SmtpServer, startSmtpServer } from './smtp';

export interface MailAndApp {
  t: TestApp;
  smtp: SmtpServer;
}

/** One app per test file with a real SMTP server for its mail, started before and closed after. */
export function withMailAndApp(env: Record<string, string> = {}): MailAndApp {
  const ctx = {} as MailAndApp;
  beforeAll(async () => {
    ctx.smtp = await startSmtpServer();
    ctx.t = await startTestApp({ SMTP_URL: ctx.smtp.url, ...env });
  });
  afterAll(async () => {
    await ctx.t?.close();
    await ctx.smtp?.close();
  });
  return ctx;
}
