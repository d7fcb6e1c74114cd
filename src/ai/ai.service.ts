import type { UnitOfWork } from '../kernel/unit-of-work';
import { Tier, type User } from '../auth';
import { ConsentType } from '../consent';
import type { ConsentService } from '../consent';
import type { AiAccess, GuardianService } from '../guardian';
import type { Deps } from '../kernel/deps';
import { AppError } from '../kernel/errors';
import { includesTier } from '../kernel/domain';
import type { AiBackend, AiIdentity, BackendResponse } from './ai.backend';
import { nextReset, type Quota, type QuotaReserver, releaseMessage, tierQuota, usedToday } from './ai.quota';
import type { UsageRecorder } from './ai.usage';
import { emptyMessage, messageTooLong } from './ai.errors';

export interface ChatRequest {
  message: string;
  conversationId?: string | null;
}

export interface ChatReply {
  conversationId: string;
  reply: string;
  tokens: number;
}

/** A chat accepted by every check and counted in the quota, ready to be sent. */
export interface PreparedChat {
  identity: AiIdentity;
  body: ChatRequest;
  /** Gives the message back to the quota (the backend did not answer it). */
  release(): Promise<void>;
  /** Adds the answer's tokens to the day's usage (written in the next batch). */
  recordTokens(tokens: number): void;
}

/** What a person's chats are sent with, decided from their account, consents and guardian's settings. */
export interface ChatTerms {
  roles: string[];
  tier: Tier;
  locale: string;
  /** The memory flag: every memory condition holds (tier, consent, guardian's switch). */
  memory: boolean;
  /** The tier's messages a day, lowered by the guardian's limit. */
  dailyLimit: number;
}

/**
 * The AI tutor behind the permission rules of ai.rules.ts (who may talk to it, who may use memory):
 * what is left here is the input, the daily quota, the memory flag sent along, and the backend.
 */
export class AiService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: Deps,
    private readonly backend: AiBackend,
    /**
     * The consent and guardian services, reached only when a person's terms are decided: a chat
     * whose terms are kept needs neither, and making them (with the services they use) for every
     * chat was CPU the proxy spent for nothing.
     */
    private readonly services: { readonly consent: ConsentService; readonly guardian: GuardianService },
    private readonly usage: UsageRecorder,
    private readonly reserver: QuotaReserver,
  ) {}

  /** The terms of a person's chats as stored now (the AI proxy keeps them per person until they change). */
  async terms(user: User): Promise<ChatTerms> {
    const access = await this.services.guardian.aiAccessOf(user.id);
    return {
      roles: user.roles,
      tier: user.tier,
      locale: user.locale,
      memory: await this.memoryAllowed(user, access),
      dailyLimit: this.dailyLimit(user, access),
    };
  }

  async prepareChat(user: User, request: ChatRequest, requestId: string): Promise<PreparedChat> {
    this.assertValid(request);
    return this.prepareWith(user.id, await this.terms(user), request, requestId);
  }

  /**
   * A chat of a person whose terms are known (the rules passed): the input's limits, the backend's
   * configuration, then one statement that takes a message of the day's quota. `admitted` is the
   * request's rate-limit count when it is still under way: the quota's statement goes beside it
   * (two round trips at once instead of one after the other), and a chat it refuses gives its
   * message back before the refusal is answered.
   */
  async prepareWith(
    userId: string,
    terms: ChatTerms,
    request: ChatRequest,
    requestId: string,
    admitted: Promise<void> = Promise.resolve(),
  ): Promise<PreparedChat> {
    this.assertValid(request);
    this.backend.assertConfigured();
    const [count, reservation] = await Promise.allSettled([admitted, this.reserver.reserve(userId, terms.dailyLimit)]);
    if (count.status === 'rejected') {
      if (reservation.status === 'fulfilled') await releaseMessage(this.uow, userId);
      throw count.reason;
    }
    if (reservation.status === 'rejected') throw reservation.reason;
    return {
      identity: { userId, roles: terms.roles, tier: terms.tier, locale: terms.locale, memory: terms.memory, requestId },
      body: { message: request.message, conversationId: request.conversationId ?? null },
      release: () => releaseMessage(this.uow, userId),
      recordTokens: (tokens) => this.usage.record(userId, tokens),
    };
  }

  async chat(user: User, request: ChatRequest, requestId: string): Promise<ChatReply> {
    return this.complete(await this.prepareChat(user, request, requestId));
  }

  /** Sends a prepared chat and answers it whole; its tokens go to the next usage batch. */
  async complete(prepared: PreparedChat): Promise<ChatReply> {
    const answer = await this.send(prepared, 'application/json');
    const reply = (await answer.body.json()) as {
      conversationId?: string;
      reply?: string;
      usage?: { totalTokens?: number };
    };
    const tokens = reply.usage?.totalTokens ?? 0;
    prepared.recordTokens(tokens);
    return {
      conversationId: String(reply.conversationId ?? prepared.body.conversationId ?? ''),
      reply: String(reply.reply ?? ''),
      tokens,
    };
  }

  /** Sends a prepared chat; a backend that fails gives the message back to the quota. */
  async send(prepared: PreparedChat, accept: string, signal?: AbortSignal): Promise<BackendResponse> {
    try {
      return await this.backend.request({
        method: 'POST',
        path: '/chat',
        identity: prepared.identity,
        body: prepared.body,
        accept,
        signal,
      });
    } catch (error) {
      await prepared.release();
      throw error;
    }
  }

  async quota(user: User): Promise<Quota> {
    const limit = this.dailyLimit(user, await this.services.guardian.aiAccessOf(user.id));
    const used = await usedToday(this.uow, user.id);
    return { tier: user.tier, period: 'day', limit, used, remaining: Math.max(0, limit - used), resetsAt: nextReset() };
  }

  /** Messages sent to the tutor today (UTC) by everyone, for the platform's figures. */
  async messagesToday(): Promise<number> {
    const [row] = await this.uow.query<{ n: number }>(
      `select coalesce(sum(messages), 0)::int as n from ai_usage where day = (now() at time zone 'utc')::date`,
    );
    return row!.n;
  }

  async conversations(user: User, requestId: string): Promise<unknown[]> {
    const access = await this.services.guardian.aiAccessOf(user.id);
    return this.items(user, 'GET', '/conversations', requestId, await this.memoryAllowed(user, access));
  }

  async memory(user: User, requestId: string): Promise<unknown[]> {
    return this.items(user, 'GET', '/memory', requestId, true);
  }

  /** Forgetting is always allowed to the person remembered: no tier or consent is asked for it. */
  async forgetMemory(user: User, requestId: string): Promise<void> {
    const response = await this.backend.request({
      method: 'DELETE',
      path: '/memory',
      identity: this.identity(user, false, requestId),
    });
    await response.body.dump();
  }

  private assertValid(request: ChatRequest): void {
    const max = this.deps.config.AI_MESSAGE_MAX_LENGTH;
    // The input's shape is checked by AiChatInput; what is left depends on the settings.
    if (!request.message.trim()) throw emptyMessage();
    if (request.message.length > max) throw messageTooLong(max);
  }

  private async items(user: User, method: 'GET', path: string, requestId: string, memory: boolean): Promise<unknown[]> {
    const response = await this.backend.request({ method, path, identity: this.identity(user, memory, requestId) });
    const body = (await response.body.json()) as { items?: unknown[] };
    return Array.isArray(body.items) ? body.items : [];
  }

  /** The memory flag sent to the backend with a chat: what the mayUseMemory rule would allow. */
  private async memoryAllowed(user: User, access: AiAccess): Promise<boolean> {
    if (!includesTier(user.tier, Tier.starter) || !access.memoryEnabled) return false;
    return this.services.consent.assertConsent(user.id, ConsentType.ai_memory).then(
      () => true,
      (error) => (error instanceof AppError && error.status === 403 ? false : Promise.reject(error)),
    );
  }

  private dailyLimit(user: User, access: AiAccess): number {
    const tierLimit = tierQuota(this.deps.config, user.tier);
    return access.dailyMessageLimit === null ? tierLimit : Math.min(tierLimit, access.dailyMessageLimit);
  }

  private identity(user: User, memory: boolean, requestId: string): AiIdentity {
    return { userId: user.id, roles: user.roles, tier: user.tier, locale: user.locale, memory, requestId };
  }
}
