import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './web-page';

/** Where a client finds the rest of the API: GraphQL, the REST documentation and the health probes. */
export const API_LINKS = {
  graphql: '/graphql',
  docs: '/docs',
  openapi: '/openapi.json',
  health: '/health',
  liveness: '/health/live',
  readiness: '/health/ready',
  email: '/health/email',
} as const;

/** The service's name and version, as package.json says (the image ships it beside dist/). */
export function apiPackage(): { name: string; version: string } {
  const { name, version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name, version };
}
