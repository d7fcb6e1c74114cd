import type { ServerResponse } from 'node:http';
import { getVariableValues, type GraphQLSchema, Kind, type OperationDefinitionNode, parse } from 'graphql';
import type { JsonRoute } from '../kernel/area';
import { sendJson } from '../kernel/json-answer';
import { restDetail } from '../kernel/rest-details';
import type { Context } from '../kernel/context';
import { AppError, databaseUnavailable, forbidden, validationFailed } from '../kernel/errors';
import { badVariable, coercionDetails, validateInput } from '../kernel/validation';
import { evaluateRule } from '../permissions/enforce';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { BackendResponse } from './ai.backend';
import type { AccessCache } from '../kernel/access-cache';
import { aiRoutes } from './ai.routes';
import { aiRules } from './ai.rules';
import type { ChatRequest, ChatTerms } from './ai.service';
import { AiChatInput, CONVERSATION_ID_MAX_LENGTH } from './ai.types';
import { invalidChatInput } from './ai.errors';

/** What the rules answered for a person (a refusal is kept like a pass: it too lasts until something changes). */
export type AiDecision = { refusal: AppError; terms?: undefined } | { refusal?: undefined; terms: ChatTerms };

/**
 * `POST /ai/chat`, JSON or `Accept: text/event-stream`, answered here without a GraphQL round trip,
 * in the order the route table's `AiChat` would: the rules of `Mutation.aiChat` as `enforce` reads them (decided
 * once per person and kept until their account, consents, guardian's settings or country policy
 * change), text no request may carry (input-guard), the body coerced to `AiChatInput!` as GraphQL
 * coerces the variable (same details), the input's class-validator checks (a plain body is taken as
 * the two would leave it), the service's limits, then one statement for the quota. Streams pass the backend's events through as they arrive and stop it when the client leaves.
 */
export function aiChatRoute(schema: GraphQLSchema, decisions: AccessCache<AiDecision>): JsonRoute {
  const route = aiRoutes.find((r) => r.operation.includes('aiChat('))!;
  const operation = parse(route.operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const variables = operation.variableDefinitions ?? [];
  return {
    path: '/ai/chat',
    async handle(ctx, requestBody, req, res) {
      // Who may call before what was sent (docs/errors.md): a refused caller learns nothing of the input.
      const userId = ctx.auth.error ? undefined : ctx.auth.userId;
      const decision = userId ? await decisions.get(userId, () => decide(ctx)) : await decide(ctx);
      if (decision.refusal) throw decision.refusal;
      const bad = badVariable({ input: requestBody });
      if (bad) throw validationFailed([bad]);
      const body = plainChat(requestBody) ?? (await validateInput(AiChatInput, coerce(schema, variables, requestBody)));
      const prepared = await ctx.services.ai.prepareWith(userId!, decision.terms, body, ctx.requestId);
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

/** `$input` as GraphQL coerces it: what a client sends to the route table's operation is refused with the same details. */
function coerce(
  schema: GraphQLSchema,
  variables: OperationDefinitionNode['variableDefinitions'] & object,
  body: unknown,
): unknown {
  const result = getVariableValues(schema, variables, { input: body });
  if (!result.errors) return result.coerced.input;
  const { message } = result.errors[0];
  const details = coercionDetails(message).map(restDetail);
  throw invalidChatInput(details, message);
}

/**
 * The rules of `Mutation.aiChat` for the caller; a refusal of the person (401, 403) is a decision
 * too. A rule that failed rather than decided (the database timing out) is answered as GraphQL
 * answers it (503 when the database is down, else 403) and nothing is kept; so is a rate limit.
 */
async function decide(ctx: Context): Promise<AiDecision> {
  const result = await evaluateRule(aiRules.Mutation.aiChat, ctx, 'Mutation.aiChat');
  if (result === false) throw isDatabaseUnavailable(ctx.failure()) ? databaseUnavailable() : forbidden();
  if (result instanceof Error) {
    if (result instanceof AppError && (result.status === 401 || result.status === 403)) return { refusal: result };
    throw result;
  }
  const user = (await ctx.viewer()) as Parameters<Context['services']['ai']['terms']>[0];
  return { terms: await ctx.services.ai.terms(user) };
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
