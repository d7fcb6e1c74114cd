import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import type { Config } from '../config';
import { queryCostRule } from './query-cost';

/** graphql-armor throws by default, which servers answer as an internal error; report instead. */
const reported = {
  exposeLimits: true,
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** The same depth, alias and cost limits for GraphQL over HTTP and over WebSocket. */
export function queryLimitRules(config: Config): ValidationRule[] {
  return [maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, ...reported }), maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, ...reported }), queryCostRule(config.GRAPHQL_MAX_COST)] as ValidationRule[];
}

export const parseOptions = (config: Config) => ({ maxTokens: config.GRAPHQL_MAX_TOKENS });
