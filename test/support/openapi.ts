import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

interface Template {
  path: string;
  pattern: RegExp;
  /** Literal segments first: `/courses/me` is not `/courses/{id}`. */
  params: number;
  operations: Json;
}

const DOCUMENT_ID = 'https://learning-platform.test/openapi.json';

/**
 * schema/openapi.json as a judge of answers: each answer of a REST operation must have a status the
 * operation declares, a body of that status's schema, and the headers it says are always sent; a
 * method a described path has no operation for is answered as its MethodNotAllowed says. Paths
 * that are no operation of it (/graphql, /health pages, files) are not its business.
 */
class OpenApiCheck {
  private readonly document: Json = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'schema', 'openapi.json'), 'utf8'),
  );
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Template[];

  constructor() {
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, DOCUMENT_ID);
    this.templates = Object.entries(this.document.paths as Json)
      .map(([path, operations]) => ({
        path,
        // As the service matches: any case, a trailing slash or not.
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
        params: (path.match(/\{/g) ?? []).length,
        operations,
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** Throws, saying what is wrong, when the description does not allow the answer. */
  check(method: string, url: string, status: number, headers: Headers, text: string): void {
    const verb = method.toLowerCase();
    if (!['get', 'post', 'put', 'delete', 'patch'].includes(verb)) return;
    const path = new URL(url).pathname;
    const matching = this.templates.filter((t) => t.pattern.test(path));
    if (!matching.length) return;
    const template = matching.find((t) => t.operations[verb]);
    const what = `${method} ${path} answered ${status} ${text.slice(0, 300)}`;
    if (!template) return this.checkOtherMethod(matching[0], status, headers, text, what);
    const pointer = `#/paths/${escape(template.path)}/${verb}/responses/${status}`;
    const response = template.operations[verb].responses[status];
    if (!response)
      throw new Error(
        `${what}: ${status} is not declared for ${verb.toUpperCase()} ${template.path} (declared: ${Object.keys(template.operations[verb].responses).join(', ')})`,
      );
    this.checkHeaders(response, headers, what);
    if (!response.content) {
      if (text !== '') throw new Error(`${what}: ${status} declares no body`);
      return;
    }
    const type = (headers.get('content-type') ?? '').split(';')[0].trim();
    if (!response.content[type])
      throw new Error(
        `${what}: Content-Type ${type} is not declared (declared: ${Object.keys(response.content).join(', ')})`,
      );
    if (type === 'application/json')
      this.validate(`${pointer}/content/application~1json/schema`, JSON.parse(text), what);
  }

  /**
   * A known path with a method it has no operation for: the document's MethodNotAllowed, whose
   * `Allow` names at least the path's operations (HEAD with GET); or the 404 error object, which
   * may be served before it.
   */
  private checkOtherMethod(template: Template, status: number, headers: Headers, text: string, what: string): void {
    if (status === 404) return this.validate('#/components/schemas/Error', JSON.parse(text), what);
    if (status !== 405)
      throw new Error(`${what}: no such operation at ${template.path}, so only 404 or 405 may answer`);
    const response = this.document.components.responses.MethodNotAllowed;
    this.checkHeaders(response, headers, what);
    const allowed = (headers.get('allow') ?? '').split(/,\s*/);
    const declared = Object.keys(template.operations).map((verb) => verb.toUpperCase());
    for (const verb of declared.includes('GET') ? [...declared, 'HEAD'] : declared) {
      if (!allowed.includes(verb))
        throw new Error(
          `${what}: Allow (${allowed.join(', ')}) does not name ${verb}, an operation of ${template.path}`,
        );
    }
    this.validate('#/components/responses/MethodNotAllowed/content/application~1json/schema', JSON.parse(text), what);
  }

  /** The headers a response declares: those required are sent, integers are integers. */
  private checkHeaders(response: Json, headers: Headers, what: string): void {
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const declared = header.$ref ? this.document.components.headers[String(header.$ref).split('/').at(-1)!] : header;
      const value = headers.get(name);
      if (declared.required && value === null) throw new Error(`${what}: header ${name} is required`);
      if (value !== null && declared.schema?.type === 'integer' && !/^\d+$/.test(value))
        throw new Error(`${what}: header ${name} is not an integer: ${value}`);
    }
  }

  private validate(pointer: string, body: unknown, what: string): void {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (!validate(body))
      throw new Error(
        `${what}: the body is not of its schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`,
      );
  }
}

/** A JSON pointer's escape of a path's slashes and tildes. */
function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

let shared: OpenApiCheck | undefined;

export function checkAgainstOpenApi(method: string, url: string, status: number, headers: Headers, text: string): void {
  shared ??= new OpenApiCheck();
  shared.check(method, url, status, headers, text);
}
