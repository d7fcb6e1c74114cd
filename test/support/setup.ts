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

export interface TwoInstances {
  first: TestApp;
  second: TestApp;
}

/** Two instances of the service on one database (what one does, the other must see), started before and closed after. */
export function withTwoInstances(env: Record<string, string> = {}): TwoInstances {
  const apps = {} as TwoInstances;
  beforeAll(async () => {
    apps.first = await startTestApp(env);
    apps.second = await startTestApp(env, apps.first.databaseUrl);
  });
  afterAll(async () => {
    await apps.first?.close();
    await apps.second?.close();
  });
  return apps;
}
