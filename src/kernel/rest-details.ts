import type { FieldError } from './errors';

/** REST names of list variables; errors about them name the REST parameter. */
export const restNames: Record<string, string> = { first: 'limit', after: 'cursor' };

// Own names only: `restNames['__proto__']` is Object.prototype, which answered `"field": {}`.
export function restNameOf(field: string): string {
  return Object.hasOwn(restNames, field) ? restNames[field] : field;
}

/** What a value of a GraphQL scalar must be, in the words of a JSON body or a query string. */
const scalarNeeds: Record<string, string> = {
  Int: 'must be an integer',
  Float: 'must be a number',
  String: 'must be a string',
  Boolean: 'must be true or false',
  ID: 'must be a string',
};

/**
 * A detail of a REST answer (docs/errors.md): named by the REST parameter or body field, and said
 * without GraphQL's words (no variables, types, enums or argument names): `limit`, "must not be
 * less than 1", where GraphQL says `first must not be less than 1`; "is required" where it says
 * `Variable "$country" of required type "String!" was not provided`. The body as a whole is `body`.
 */
export function restDetail(detail: FieldError): FieldError {
  const graphqlField = String(detail.field);
  const field = graphqlField === 'input' ? 'body' : restNameOf(graphqlField);
  return { field, message: restMessage(detail.message, graphqlField.split('.').at(-1)!) };
}

function restMessage(message: string, name: string): string {
  if (/of required type ".+" was not provided/.test(message)) return 'is required';
  if (/^Field ".+" is not defined by type/.test(message)) return 'is not a field of this request';
  if (/^Expected type ".+" to be an object/.test(message)) return 'must be a JSON object';
  if (/^Value ".*" does not exist in ".+" enum/.test(message)) return 'is not one of the allowed values';
  const scalar = /^(\w+) cannot represent/.exec(message);
  if (scalar) return scalarNeeds[scalar[1]] ?? 'is not valid';
  if (/^Expected value of type ".+", found/.test(message)) return 'is not valid';
  // class-validator's default messages begin with the argument's GraphQL name.
  return message.startsWith(`${name} `) ? message.slice(name.length + 1) : message;
}
