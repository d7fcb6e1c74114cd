import { createHash, createHmac } from 'node:crypto';
import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { AppError, type ErrorCode } from '../kernel/errors';

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

const unavailable = (message = 'The AI service cannot be reached. Try again later.') => new AppError('upstream_unavailable', message);
const upstreamError = () => new AppError('upstream_error', 'The AI service answered with an error. Try again later.');

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

/**
 * The AI backend behind a circuit breaker: while it fails, requests fail fast (503) instead of
 * piling up; after a pause one request tries again and, if it passes, the breaker closes.
 */
export class AiBackend {
  private readonly breaker: CircuitBreaker<[string, RequestInit], Response>;

  constructor(
    private readonly config: Pick<Config, 'AI_BACKEND_URL' | 'AI_BACKEND_SECRET' | 'AI_BACKEND_AUTH' | 'AI_BACKEND_TIMEOUT_MS' | 'AI_BREAKER_FAILURES' | 'AI_BREAKER_RESET_MS'>,
    private readonly log: Logger,
  ) {
    this.breaker = new CircuitBreaker(send, {
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
      throw unavailable('The AI tutor is not configured on this server: set AI_BACKEND_URL and AI_BACKEND_SECRET.');
    }
  }

  async request(request: BackendRequest): Promise<Response> {
    this.assertConfigured();
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const base = this.config.AI_BACKEND_URL!;
    const url = new URL(request.path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
    const signal = AbortSignal.any([AbortSignal.timeout(this.config.AI_BACKEND_TIMEOUT_MS), ...(request.signal ? [request.signal] : [])]);
    const init: RequestInit = { method: request.method, body, signal, headers: this.headers(request, url, body) };
    let response: Response;
    try {
      response = await this.breaker.fire(url.toString(), init);
    } catch (error) {
      if (request.signal?.aborted) throw error;
      if (error instanceof AppError) throw error;
      if ((error as { code?: string }).code === 'EOPENBREAKER') throw unavailable('The AI service is unavailable at the moment. Try again in a few seconds.');
      throw unavailable();
    }
    if (response.ok) return response;
    await response.body?.cancel();
    const code = clientErrors[response.status];
    if (!code) throw upstreamError();
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new AppError(code, code === 'rate_limited' ? 'The AI service is busy. Try again later.' : 'The AI service refused the request.', {
      ...(code === 'rate_limited' ? { retryAfter: retryAfter > 0 ? retryAfter : 1 } : {}),
      ...(code === 'validation_failed' ? { details: [] } : {}),
    });
  }

  private headers(request: BackendRequest, url: URL, body: string | undefined): Record<string, string> {
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
    else headers['x-ai-signature'] = `v1=${signature(secret, timestamp, request.method, url.pathname + url.search, identity, body)}`;
    return headers;
  }
}

/** HMAC-SHA256 over what the backend must be able to trust (docs/ai-backend.md). */
export function signature(secret: string, timestamp: string, method: string, path: string, identity: AiIdentity, body: string | undefined): string {
  const bodyHash = createHash('sha256')
    .update(body ?? '')
    .digest('hex');
  const signed = [timestamp, method, path, identity.userId, identity.roles.join(','), identity.tier, identity.locale, String(identity.memory), bodyHash].join('\n');
  return createHmac('sha256', secret).update(signed).digest('hex');
}

/** One request; a 5xx counts against the backend, a 4xx is the caller's. */
async function send(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if ((init.signal as AbortSignal).aborted && (init.signal as AbortSignal).reason?.name !== 'TimeoutError') throw new BackendFault('client went away');
    throw error;
  }
  if (response.status >= 500) {
    await response.body?.cancel();
    throw upstreamError();
  }
  return response;
}
