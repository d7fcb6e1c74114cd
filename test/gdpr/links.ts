import { downloadUrl } from '../../src/gdpr/gdpr.links';
import type { TestApp } from '../support/app';

/** A link signed as the service signs them, for an expiry the test chooses. */
export function downloadLinkFor(t: TestApp, requestId: string, expiresAt: Date): string {
  return downloadUrl(t.app.deps.config, requestId, expiresAt);
}
