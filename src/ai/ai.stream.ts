import type { ServerResponse } from 'node:http';
import type { JsonRoute } from '../kernel/area';
import { sendJson } from '../kernel/json-answer';
import type { Context } from '../kernel/context';
import type { AppError } from '../kernel/errors';
import type { BackendResponse } from './ai.backend';
import type { AccessCache } from '../kernel/access-cache';
import { aiRoutes } from './ai.routes';
import { aiRules } from './ai.rules';
import type { ChatRequest, ChatTerms } from './ai.service';
import { AiChatInput, CONVERSATION_ID_MAX_LENGTH } from './ai.types';

/**
 * What the route keeps per person until their account, consents, guardian's settings or country
 * policy change: the verdict of the rules (a refusal is kept like a pass), and the terms of a chat.
 */
export interface AiKept {
  verdicts: AccessCache<true | AppError>;
  terms: AccessCache<ChatTerms>;
}

/**
 * `POST /ai/chat`, JSON or `Accept: text/event-stream`, answered here without a GraphQL round trip,
 * in the order the route table's `AiChat` would: the route declares the rule of `Mutation.aiChat`
 * and the input of the row's operation, and the request chain applies them (the rule with its
 * limits, then the body as GraphQL checks `$input`); then the service's limits, then one statement
 * for the quota, sent while the limits are still being counted (a chat refused by them gives its
 * message back before it is answered 429). Streams pass the backend's events through as they
 * arrive and stop it when the client leaves.
 */
export function aiChatRoute(kept: AiKept): JsonRoute {
  const route = aiRoutes.find((r) => r.operation.includes('aiChat('))!;
  return {
    path: '/ai/chat',
    rule: { rule: aiRules.Mutation.aiChat, field: 'Mutation.aiChat', verdicts: kept.verdicts },
    input: { operation: route.operation, type: AiChatInput, plain: plainChat },
    overlapsCount: true,
    async handle(ctx, input, req, res, counted) {
      const userId = ctx.auth.userId!;
      const body = input as ChatRequest;
      const terms = await kept.terms.get(userId, () => termsOf(ctx));
      const prepared = await ctx.services.ai.prepareWith(userId, terms, body, ctx.requestId, counted);
      if (!req.headers.accept?.includes('text/event-stream')) {
        sendJson(res, route.status, await ctx.services.ai.complete(prepared));
        return;
      }
      const leaving = new AbortController();
      res.on('close', () => leaving.abort());
      const upstream = await ctx.services.ai.send(prepared, 'text/event-stream', leaving.signal);
      await relay(upstream, res, (tokens) => prepared.recordTokens(tokens));
    },
  };
}

/**
 * The body of nearly every chat, only `message` (a string) and `conversationId` (a string short
 * enough, or null), which coercion to `AiChatInput!` and its class-validator checks would hand back
 * unchanged: taken as it is, since the two cost a tenth of a chat's CPU time in the proxy's profile.
 * Any other body goes through both and is refused with their details.
 */
function plainChat(body: unknown): ChatRequest | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const key in body) if (key !== 'message' && key !== 'conversationId') return undefined;
  const { message, conversationId } = body as Record<string, unknown>;
  if (typeof message !== 'string') return undefined;
  if (conversationId === undefined || conversationId === null) return { message, conversationId };
  return typeof conversationId === 'string' && conversationId.length <= CONVERSATION_ID_MAX_LENGTH
    ? { message, conversationId }
    : undefined;
}

/** The terms of the caller's chats, once the rules have let them through. */
async function termsOf(ctx: Context): Promise<ChatTerms> {
  const user = (await ctx.viewer()) as Parameters<Context['services']['ai']['terms']>[0];
  return ctx.services.ai.terms(user);
}

/** Writes each chunk as it comes; the `done` event's usage is recorded once the stream ends. */
async function relay(upstream: BackendResponse, res: ServerResponse, record: (tokens: number) => void) {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // A tutor's answer to one learner is kept nowhere; no-transform keeps compression from holding events back.
  res.setHeader('Cache-Control', 'no-store, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let tokens = 0;
  let pending = '';
  try {
    for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
      res.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) tokens = usageOf(line) ?? tokens;
    }
  } catch {
    // The client left (the upstream request was aborted) or the backend broke off: end here.
  }
  res.end();
  record(tokens);
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
