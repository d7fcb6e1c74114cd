import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { ValidationRule } from 'graphql';
import type { Config } from '../config';

/** The same depth, alias and cost limits for GraphQL over HTTP and over WebSocket. */
export function queryLimitRules(config: Config): ValidationRule[] {
  return [
    maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, exposeLimits: true }),
    maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, exposeLimits: true }),
    costLimitRule({ maxCost: config.GRAPHQL_MAX_COST, exposeLimits: true }),
  ] as ValidationRule[];
}

export const parseOptions = (config: Config) => ({ maxTokens: config.GRAPHQL_MAX_TOKENS });
