import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../../kernel/context';
import type { Deps } from '../../kernel/deps';
import { metricsOf } from './registry';

/** Operation names are the client's to choose: past this many per type, the others count as `other`. */
const MAX_NAMES_PER_TYPE = 200;
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;

/** Counts and times every GraphQL operation Apollo answers, by its type and name, with those that failed. */
export function graphqlMetricsPlugin(deps: Deps): ApolloServerPlugin<Context> {
  const metrics = metricsOf(deps);
  const seen = new Map<string, Set<string>>();
  const label = (type: string, name: string | undefined): string => {
    if (name === undefined) return 'anonymous';
    let names = seen.get(type);
    if (!names) seen.set(type, (names = new Set()));
    if (names.has(name)) return name;
    if (!NAME.test(name) || names.size >= MAX_NAMES_PER_TYPE) return 'other';
    names.add(name);
    return name;
  };
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, errors, response }) {
          // No operation: the document did not parse or validate, or named none of its operations.
          const type = operation?.operation ?? 'unknown';
          const labels = {
            operation_type: type,
            operation_name: operation ? label(type, operation.name?.value) : 'unknown',
          };
          metrics.graphqlOperations.inc(labels);
          metrics.graphqlDuration.observe(labels, (performance.now() - started) / 1000);
          const failed =
            Boolean(errors?.length) ||
            (response.body.kind === 'single' && Boolean(response.body.singleResult.errors?.length));
          if (failed) metrics.graphqlErrors.inc(labels);
        },
      };
    },
  };
}
