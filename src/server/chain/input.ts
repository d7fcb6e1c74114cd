import { getVariableValues, type GraphQLSchema, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { restDetail } from '../../kernel/rest-details';
import type { RouteInput } from '../../kernel/area';
import { validationFailed } from '../../kernel/errors';
import { badVariable, coercionDetails, validateInput } from '../../kernel/validation';
import { invalidInput } from '../server.errors';

/**
 * The input link for a route GraphQL does not run: the body as the route-table row's operation takes
 * its `$input`, refused as GraphQL refuses it over REST (the same checks, the same details): text no
 * request may carry (input-guard), the coercion to the variable's type, then the input class's own
 * checks. A body the route takes as it is (`plain`) skips the last two, which would hand it back
 * unchanged.
 */
export function inputOf(schema: GraphQLSchema, input: RouteInput): (body: unknown) => Promise<unknown> {
  const operation = parse(input.operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error('a route input names an operation');
  const variables = operation.variableDefinitions ?? [];
  return async (body) => {
    const bad = badVariable({ input: body });
    if (bad) throw validationFailed([bad]);
    const plain = input.plain?.(body);
    if (plain) return plain;
    const result = getVariableValues(schema, variables, { input: body });
    if (result.errors) {
      const { message } = result.errors[0];
      throw invalidInput(coercionDetails(message).map(restDetail), message);
    }
    return validateInput(input.type, result.coerced.input);
  };
}
