/**
 * Placeholders are positional: `push` adds a value to a statement's parameters and answers its
 * placeholder, so SQL written in pieces (common table expressions, optional filters) keeps its
 * values in the order the SQL reads them.
 */
export function push(params: unknown[], value: unknown): string {
  params.push(value);
  return '?';
}
