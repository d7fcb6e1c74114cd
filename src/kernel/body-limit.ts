import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { type DocumentNode, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { payloadTooLarge } from './errors';

/**
 * Mutations whose input may be larger than BODY_LIMIT, with the largest JSON body each needs (bytes).
 * An area declares them (`bodyLimits` of defineArea) so that a limit of the specification, such as
 * a project's 256 KiB, answers with its own error instead of express's 413; every other operation
 * keeps BODY_LIMIT, on REST and GraphQL alike.
 */
export type BodyLimits = Record<string, number>;

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };

/** `100kb` -> 102400 (the forms config.BODY_LIMIT accepts: digits and b, kb or mb). */
export function sizeInBytes(size: string): number {
  const match = /^(\d+)(b|kb|mb)$/i.exec(size.trim());
  if (!match) throw new Error(`not a size: ${size}`);
  return Number(match[1]) * UNITS[match[2].toLowerCase()];
}

/**
 * The longest JSON escape of one byte of text is six bytes (`\u0001`): a body limit of six times a
 * text limit, plus room for the other fields, lets any JSON encoding of text within the limit
 * through.
 */
export const jsonRoomFor = (textBytes: number, otherFieldsBytes: number) => 6 * textBytes + otherFieldsBytes;

/**
 * The body limit of one operation: the declared limit of its root fields when it is a mutation
 * whose every root field declares one (the smallest of them), else the default.
 */
export function operationBodyLimit(
  document: DocumentNode,
  operationName: string | null | undefined,
  limits: BodyLimits,
  fallback: number,
): number {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation || operation.operation !== 'mutation' || !operation.selectionSet.selections.length) return fallback;
  let limit = Infinity;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || !Object.hasOwn(limits, selection.name.value)) return fallback;
    limit = Math.min(limit, limits[selection.name.value]);
  }
  return Math.max(fallback, limit);
}

/** The largest body any operation may send: what the JSON parser in front of GraphQL accepts. */
export const largestBodyLimit = (limits: BodyLimits, fallback: number) => Math.max(fallback, ...Object.values(limits));

const bodySizes = new WeakMap<IncomingMessage, number>();

/** For express.json's `verify`: remembers the size of the body it read. */
export function rememberBodySize(req: IncomingMessage, _res: unknown, buffer: Buffer): void {
  bodySizes.set(req, buffer.length);
}

/**
 * After a JSON parser that accepted up to the largest limit (with `verify: rememberBodySize`):
 * a GraphQL body over BODY_LIMIT passes only when its operation declares room for it.
 */
export function graphqlBodyLimit(limits: BodyLimits, fallback: number): RequestHandler {
  return (req, _res, next) => {
    const size = bodySizes.get(req) ?? 0;
    if (size <= fallback) return next();
    const body = req.body as { query?: unknown; operationName?: unknown } | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.query !== 'string')
      return next(payloadTooLarge());
    let document: DocumentNode;
    try {
      document = parse(body.query, { maxTokens: 10_000 });
    } catch {
      return next(payloadTooLarge());
    }
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    next(size <= operationBodyLimit(document, operationName, limits, fallback) ? undefined : payloadTooLarge());
  };
}
