import { randomUUID } from 'node:crypto';
import { type GraphQLInputType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType } from 'graphql';
import { PASSWORD, uniqueEmail } from './users';

/**
 * A plausible value of a GraphQL input type, so that a request built from it meets the code behind
 * its variables (the permission rules, the validation of one wrong field) rather than a refusal of
 * the whole document. Used by the fuzz test and the authorization matrix of test/security.
 */
export function sample(type: GraphQLInputType, name: string, depth = 0): unknown {
  if (isNonNullType(type)) return sample(type.ofType, name, depth);
  if (name === 'after') return undefined; // the first page: a made-up cursor would stop every list at the cursor check
  if (isListType(type)) return depth > 4 ? [] : [sample(type.ofType, name, depth + 1)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, sample(f.type, f.name, depth + 1)]));
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return /age|min/i.test(name) ? 10 : /lessonCount/.test(name) ? 2 : 1;
      case 'Float':
        return 1.5;
      case 'Boolean':
        return true;
      case 'ID':
        return randomUUID();
      case 'JSONObject':
        return {};
      case 'DateTimeISO':
        return new Date().toISOString();
      default:
        if (/email/i.test(name)) return uniqueEmail('fuzz');
        if (/password/i.test(name)) return PASSWORD;
        if (/birthDate/.test(name)) return '2010-05-01';
        if (/country/i.test(name)) return 'VN';
        if (/locale|language/.test(name)) return 'en';
        if (/ageRange/.test(name)) return '9-12';
        return 'plain text';
    }
  }
  return null;
}
