import { createHmac, hash } from 'node:crypto';
import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import { Agent, type Dispatcher, request as undiciRequest } from 'undici';
import type { Config } from '../config';
import { AppError, type ErrorCode } from '../kernel/errors';
import { aiCircuitOpen, aiNotConfigured, aiRefused, aiUnreachable, aiUpstreamError } from './ai.errors';

/** Who the caller is, as the backend may trust it (docs/ai-backend.md). */
export interface AiIdentity {
  userId: string;
  roles: string[];
  tier: string;
  locale: string;
  /** True only when every memory condition holds (tier, consent, guardian's switch). */
  memory: boolean;
  requestId: string;
}

export interface BackendRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  identity: AiIdentity;
  body?: unknown;
  accept?: string;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

/** A 4xx of the backend keeps its meaning with our error object. */
const clientErrors: Record<number, ErrorCode> = {
  400: 'validation_failed',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'validation_failed',
  429: 'rate_limited',
};

class BackendFault extends Error {}

/** The backend's answer: status, headers and a body to read once (`.json()`, async iteration) or `.dump()`. */
export type BackendResponse = Dispatcher.ResponseData;

type Settings = Pick<
  Config,
  | 'AI_BACKEND_URL'
  | 'AI_BACKEND_SECRET'
  | 'AI_BACKEND_AUTH'
  | 'AI_BACKEND_TIMEOUT_MS'
  | 'AI_BREAKER_FAILURES'
  | 'AI_BREAKER_RESET_MS'
> &
  Partial<Pick<Config, 'AI_BACKEND_CONNECTIONS'>>;

interface SendOptions {
  method: BackendRequest['method'];
  path: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * The AI backend behind a circuit breaker: while it fails, requests fail fast (503) instead of
 * piling up; after a pause one request tries again and, if it passes, the breaker closes.
 */
export class AiBackend {
  private readonly breaker: CircuitBreaker<[SendOptions], BackendResponse>;
  /** Keep-alive connections to the backend, reused across requests (no TCP set-up per message). */
  private readonly agent?: Agent;
  private readonly base?: URL;
  private readonly paths = new Map<string, string>();

  constructor(
    private readonly config: Settings,
    private readonly log: Logger,
  ) {
    if (config.AI_BACKEND_URL) {
      this.base = new URL(config.AI_BACKEND_URL.endsWith('/') ? config.AI_BACKEND_URL : `${config.AI_BACKEND_URL}/`);
      // A backend that sends no headers, or stops sending in the middle of a stream, for this long is unavailable.
      this.agent = new Agent({
        connections: config.AI_BACKEND_CONNECTIONS ?? 256,
        keepAliveTimeout: 30_000,
        headersTimeout: config.AI_BACKEND_TIMEOUT_MS,
        bodyTimeout: config.AI_BACKEND_TIMEOUT_MS,
      });
    }
    const agent = this.agent;
    const origin = this.base?.origin;
    this.breaker = new CircuitBreaker((options: SendOptions) => send(agent!, origin!, options), {
      timeout: false,
      resetTimeout: config.AI_BREAKER_RESET_MS,
      volumeThreshold: config.AI_BREAKER_FAILURES,
      errorThresholdPercentage: 50,
      // Only the backend's own faults count; a client that left or a 4xx says nothing of its health.
      errorFilter: (error: unknown) => error instanceof BackendFault,
    });
    this.breaker.on('open', () => this.log.warn('AI backend failing: circuit open'));
    this.breaker.on('close', () => this.log.info('AI backend answering again: circuit closed'));
  }

  assertConfigured(): void {
    if (!this.config.AI_BACKEND_URL) {
      throw aiNotConfigured();
    }
  }

  async close(): Promise<void> {
    this.breaker.shutdown();
    await this.agent?.close();
  }

  async request(request: BackendRequest): Promise<BackendResponse> {
    this.assertConfigured();
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const path = this.pathOf(request.path);
    // The whole exchange, streams included, is bounded as it was with fetch (the pool's own timeouts
    // are coarser). One timer, cleared when the answer's body is done: AbortSignal.timeout's timer
    // and signal outlived every answer by AI_BACKEND_TIMEOUT_MS (60,000 of each alive at 2,000
    // chats a second), and collecting them was a share of the proxy's garbage collection.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('The backend took too long.', 'TimeoutError')),
      this.config.AI_BACKEND_TIMEOUT_MS,
    ).unref();
    const signal = request.signal ? AbortSignal.any([deadline.signal, request.signal]) : deadline.signal;
    let response: BackendResponse;
    try {
      response = await this.breaker.fire({
        method: request.method,
        path,
        body,
        signal,
        headers: this.headers(request, path, body),
      });
    } catch (error) {
      clearTimeout(timer);
      if (request.signal?.aborted) throw error;
      if (error instanceof AppError) throw error;
      if ((error as { code?: string }).code === 'EOPENBREAKER') throw aiCircuitOpen();
      throw aiUnreachable();
    }
    // A body read to its end, dumped or destroyed (the client left) closes.
    response.body.once('close', () => clearTimeout(timer));
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    await response.body.dump();
    const code = clientErrors[response.statusCode];
    if (!code) throw aiUpstreamError();
    throw aiRefused(code, Number(response.headers['retry-after']));
  }

  /** The path a request goes to under AI_BACKEND_URL (resolved once per path: chats all go to `/chat`). */
  private pathOf(relative: string): string {
    let path = this.paths.get(relative);
    if (path === undefined) {
      const url = new URL(relative.replace(/^\//, ''), this.base);
      path = url.pathname + url.search;
      // Per-person paths (an erasure's `/users/:id`) would grow it without end.
      if (this.paths.size >= 100) this.paths.clear();
      this.paths.set(relative, path);
    }
    return path;
  }

  private headers(request: BackendRequest, path: string, body: string | undefined): Record<string, string> {
    const { identity } = request;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: request.accept ?? 'application/json',
      'x-request-id': identity.requestId,
      'x-ai-user-id': identity.userId,
      'x-ai-user-roles': identity.roles.join(','),
      'x-ai-user-tier': identity.tier,
      'x-ai-user-locale': identity.locale,
      'x-ai-memory': String(identity.memory),
      'x-ai-timestamp': timestamp,
    };
    const secret = this.config.AI_BACKEND_SECRET!;
    if (this.config.AI_BACKEND_AUTH === 'token') headers.authorization = `Bearer ${secret}`;
    else headers['x-ai-signature'] = `v1=${signature(secret, timestamp, request.method, path, identity, body)}`;
    return headers;
  }
}

/** HMAC-SHA256 over what the backend must be able to trust (docs/ai-backend.md). */
export function signature(
  secret: string,
  timestamp: string,
  method: string,
  path: string,
  identity: AiIdentity,
  body: string | undefined,
): string {
  const bodyHash = hash('sha256', body ?? '', 'hex');
  const signed = [
    timestamp,
    method,
    path,
    identity.userId,
    identity.roles.join(','),
    identity.tier,
    identity.locale,
    String(identity.memory),
    bodyHash,
  ].join('\n');
  return createHmac('sha256', secret).update(signed).digest('hex');
}

/** One request; a 5xx counts against the backend, a 4xx is the caller's. */
async function send(agent: Agent, origin: string, options: SendOptions): Promise<BackendResponse> {
  let response: BackendResponse;
  try {
    response = await undiciRequest(origin + options.path, {
      method: options.method,
      headers: options.headers,
      body: options.body,
      signal: options.signal,
      dispatcher: agent,
    });
  } catch (error) {
    const signal = options.signal;
    if (signal?.aborted && (signal.reason as { name?: string } | undefined)?.name !== 'TimeoutError')
      throw new BackendFault('client went away');
    throw error;
  }
  if (response.statusCode >= 500) {
    await response.body.dump();
    throw aiUpstreamError();
  }
  return response;
}
