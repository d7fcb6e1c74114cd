import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { asOneStep, runSteps } from '../../src/server/steps';

/*
 * One runner of the request's steps for every way in: the routes served before express call it,
 * and express mounts the list as one step it runs. A list therefore behaves the same whichever way
 * a request comes in: its steps in order, asynchronous ones awaited, the first error ending it.
 */

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(listener: RequestListener): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Three steps: one at once, one after a timer, and one that fails when the request asks. */
const steps: RequestHandler[] = [
  (_req, res, next) => (res.setHeader('X-Steps', 'a'), next()),
  (_req, res, next) =>
    void setTimeout(() => (res.setHeader('X-Steps', `${String(res.getHeader('X-Steps'))},b`), next()), 5),
  (req, res, next) => {
    if (req.headers['x-fail']) return next(new Error('refused'));
    res.setHeader('X-Steps', `${String(res.getHeader('X-Steps'))},c`);
    next();
  },
];

const answer = (res: ServerResponse, status: number, text: string) => res.writeHead(status).end(text);

const ways: [string, () => RequestListener][] = [
  [
    'served before express',
    () => (req, res) =>
      void runSteps(steps, req, res).then(
        () => answer(res, 200, 'done'),
        (error: Error) => answer(res, 500, error.message),
      ),
  ],
  [
    'served by express',
    () => {
      const app = express();
      app.use(asOneStep(steps), (_req, res) => answer(res, 200, 'done'));
      app.use(((error: Error, _req, res, _next) => answer(res, 500, error.message)) as express.ErrorRequestHandler);
      return app;
    },
  ],
];

describe.each(ways)('the steps of a request %s', (_way, listener) => {
  it('run in order, an asynchronous step awaited before the next', async () => {
    const response = await fetch(await serve(listener()));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-steps')).toBe('a,b,c');
    expect(await response.text()).toBe('done');
  });

  it('end at the first error, which the way in answers; no later step runs', async () => {
    const response = await fetch(await serve(listener()), { headers: { 'X-Fail': '1' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-steps')).toBe('a,b');
    expect(await response.text()).toBe('refused');
  });
});
