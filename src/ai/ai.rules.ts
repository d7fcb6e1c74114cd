import { allow, and } from 'graphql-shield';
import { isAuthenticated, throttled } from '../permissions/rules';

/** At the door: a token, and the per-minute AI limit (counted once, REST or GraphQL). */
const aiCaller = and(isAuthenticated, throttled('ai'));

export const aiRules = {
  Query: { aiQuota: aiCaller, aiConversations: aiCaller, aiMemory: aiCaller },
  Mutation: { aiChat: aiCaller, forgetAiMemory: aiCaller },
  AiChatReply: allow,
  AiQuota: allow,
};
