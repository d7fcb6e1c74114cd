import express, { type Response as ExpressResponse, type Request, Router } from 'express';
import { AiChatInput } from './ai.types';
import type { Context } from '../kernel/context';
import { validateInput } from '../kernel/validation';
import { enforce } from '../permissions/enforce';
import { aiRules } from './ai.rules';

/**
 * `POST /ai/chat` with `Accept: text/event-stream`: the one path the route table cannot serve,
 * because GraphQL answers whole. It runs the same checks through the same service, passes the
 * backend's events through as they arrive, and stops the backend when the client leaves.
 */
export function aiStreamRouter(context: (req: Request) => Context, bodyLimit: string): Router {
  const router = Router();
  router.post('/ai/chat', express.json({ limit: bodyLimit }), async (req, res, next) => {
    if (!req.headers.accept?.includes('text/event-stream')) return next();
    const ctx = context(req);
    await enforce(aiRules.Mutation.aiChat, ctx);
    const user = (await ctx.viewer())!;
    const prepared = await ctx.services.ai.prepareChat(user, await validateInput(AiChatInput, req.body), ctx.requestId);
    const leaving = new AbortController();
    res.on('close', () => leaving.abort());
    const upstream = await ctx.services.ai.send(prepared, 'text/event-stream', leaving.signal);
    await relay(upstream, res, (tokens) => prepared.recordTokens(tokens));
  });
  return router;
}

/** Writes each chunk as it comes; the `done` event's usage is recorded once the stream ends. */
async function relay(upstream: Response, res: ExpressResponse, record: (tokens: number) => Promise<void>) {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let tokens = 0;
  let pending = '';
  try {
    for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) {
      res.write(chunk);
      pending += Buffer.from(chunk).toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) tokens = usageOf(line) ?? tokens;
    }
  } catch {
    // The client left (the upstream request was aborted) or the backend broke off: end here.
  }
  res.end();
  await record(tokens);
}

function usageOf(line: string): number | undefined {
  if (!line.startsWith('data:') || !line.includes('totalTokens')) return undefined;
  try {
    const tokens = (JSON.parse(line.slice(5)) as { usage?: { totalTokens?: number } }).usage?.totalTokens;
    return typeof tokens === 'number' ? tokens : undefined;
  } catch {
    return undefined;
  }
}
