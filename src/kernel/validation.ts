import { validate, type ValidationError } from 'class-validator';
import { bodyNotAnObject, type FieldError, validationFailed } from './errors';

/**
 * The one way inputs are checked: the class-validator decorators on the input classes, which
 * type-graphql applies to every GraphQL argument (so every REST body too). Routes outside GraphQL
 * (streams, webhooks) check their bodies with the same classes here, for the same `details`.
 */
export async function validateInput<T extends object>(type: new () => T, body: unknown): Promise<T> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bodyNotAnObject();
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

/**
 * Text no request may carry (server/input-guard.ts checks GraphQL and the route table; routes
 * answered outside GraphQL check their bodies here): a NUL byte or a lone UTF-16 surrogate.
 */
export const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const reasonOf = (text: string) =>
  text.includes('\u0000') ? 'must not contain a NUL character' : 'must be valid Unicode text (a lone surrogate is not)';

/** The first bad string among the variables, named as a client names the field. */
export function badVariable(variables: Record<string, unknown> | undefined | null): FieldError | null {
  if (!variables) return null;
  for (const [name, value] of Object.entries(variables)) {
    // `$input` is the body of a REST request: its fields are named without the variable, as graphql-js does.
    const found = badValue(value, name === 'input' ? [] : [name], 0);
    if (found) return found;
  }
  return null;
}

function badValue(value: unknown, path: string[], depth: number): FieldError | null {
  const field = () => path.join('.') || 'input';
  if (typeof value === 'string') return BAD_TEXT.test(value) ? { field: field(), message: reasonOf(value) } : null;
  if (depth > 64) return { field: field(), message: 'is nested too deeply' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = badValue(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const keyPath = [...path, key];
      if (BAD_TEXT.test(key)) return { field: keyPath.join('.'), message: `a field name ${reasonOf(key)}` };
      const found = badValue(inner, keyPath, depth + 1);
      if (found) return found;
    }
  }
  return null;
}
