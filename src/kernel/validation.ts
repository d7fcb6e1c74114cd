import { validate, type ValidationError } from 'class-validator';
import { type FieldError, validationFailed } from './errors';

/**
 * The one way inputs are checked: the class-validator decorators on the input classes, which
 * type-graphql applies to every GraphQL argument (so every REST body too). Routes outside GraphQL
 * (streams, webhooks) check their bodies with the same classes here, for the same `details`.
 */
export async function validateInput<T extends object>(type: new () => T, body: unknown): Promise<T> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  const input = Object.assign(new type(), body) as T;
  const errors = await validate(input, { forbidUnknownValues: false, whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) throw validationFailed(validationDetails(errors));
  return input;
}

/** class-validator's findings as `details`: one message per field, nested fields dotted. */
export function validationDetails(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {})
      .slice(0, 1)
      .map((message) => ({ field, message }));
    return [...own, ...validationDetails(e.children ?? [], field)];
  });
}

/**
 * graphql-js reports a variable that does not fit its type in prose; the field it names is what a
 * client needs, so it is pulled out: `at "input.email"`, `Field "password" of required type`,
 * `Field "x" is not defined`, `Variable "$id" of required type`.
 */
export function coercionDetails(message: string): FieldError[] {
  const at = /at "(?:[^".]+\.)?([^"]+)"/.exec(message)?.[1];
  const named = /Field "([^"]+)"/.exec(message)?.[1];
  const variable = /Variable "\$([^"]+)"/.exec(message)?.[1];
  const path = [at, named].filter(Boolean).join('.') || variable;
  const reason = message.includes('; ') ? message.slice(message.indexOf('; ') + 2) : message;
  return path ? [{ field: path, message: reason }] : [];
}
