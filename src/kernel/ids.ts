import { isUUID } from 'class-validator';

/**
 * Ids are UUIDs; anything else names no record. Services check before querying, so a malformed id
 * is a plain 404 rather than a database error.
 */
export function isId(value: string): boolean {
  return isUUID(value);
}
