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
