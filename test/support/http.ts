import { checkAgainstOpenApi } from './openapi';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, not as JSON. */
  raw?: string;
  headers?: Record<string, string>;
}

/** Talks to the running service over HTTP, as a client would; every REST answer is checked against the OpenAPI description. */
export class Client {
  constructor(readonly base: string) {}

  async rest<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined || options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.raw ?? JSON.stringify(options.body);
    }
    const response = await fetch(this.base + path, { method, headers, body });
    const text = await response.text();
    // What the service answers at a REST path is what schema/openapi.json says it may answer.
    checkAgainstOpenApi(method, this.base + path, response.status, response.headers, text);
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  get = <T = any>(path: string, options?: CallOptions) => this.rest<T>('GET', path, options);
  post = <T = any>(path: string, body?: unknown, options?: CallOptions) =>
    this.rest<T>('POST', path, { ...options, body });
  put = <T = any>(path: string, body?: unknown, options?: CallOptions) =>
    this.rest<T>('PUT', path, { ...options, body });
  delete = <T = any>(path: string, options?: CallOptions) => this.rest<T>('DELETE', path, options);

  /** A GraphQL operation over HTTP: `{ data, errors }` as the server sent it. */
  async gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<Reply<{ data: T; errors?: GqlError[] }>> {
    return this.rest('POST', '/graphql', { token, body: { query, variables } });
  }
}

export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; details?: { field: string; message: string }[]; retryAfter?: number };
}

/** The codes of the errors at one path of the answer (`viewer.linkedLearners.nodes.0.payments`). */
export function codesAt(errors: GqlError[] | undefined, path: string): string[] {
  return (errors ?? []).filter((e) => (e.path ?? []).join('.') === path).map((e) => e.extensions.code);
}

export type Http = Client;
