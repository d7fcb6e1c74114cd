import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../src/scripts/fleet/fleet';
import { readSiteTemplate, renderSite } from '../../src/scripts/fleet/nginx';

describe("the fleet's nginx site", () => {
  const template = readSiteTemplate(repositoryRoot());

  it('is deploy/nginx.conf with the instances as its upstream and a loopback port to listen on, nothing else changed', () => {
    const site = renderSite(template, [4101, 4102, 4103], 8181);
    expect(site).toContain(
      'upstream api {\n    server 127.0.0.1:4101 max_fails=3 fail_timeout=10s;\n    server 127.0.0.1:4102 max_fails=3 fail_timeout=10s;\n    server 127.0.0.1:4103 max_fails=3 fail_timeout=10s;\n}',
    );
    expect(site).toMatch(/^\s*listen 127\.0\.0\.1:8181;$/m);
    expect(site).not.toMatch(/api-\d:4000|listen 80;/);
    // What the tests rely on is the file as deployed: the client's address as nginx saw it, passive failover.
    for (const directive of [
      'proxy_set_header X-Forwarded-For $remote_addr;',
      'proxy_next_upstream error timeout http_502 http_503;',
    ])
      expect(site).toContain(directive);
    expect(site.replace(/upstream api \{[^}]*\}/, '').replace(/listen [^;]*;/, '')).toBe(
      template.replace(/upstream api \{[^}]*\}/, '').replace(/listen [^;]*;/, ''),
    );
  });

  it('marks an instance taken out of rotation down, so that nginx sends it nothing', () => {
    const site = renderSite(template, [4101, 4102], 8181, [4102]);
    expect(site).toContain(
      '    server 127.0.0.1:4101 max_fails=3 fail_timeout=10s;\n    server 127.0.0.1:4102 max_fails=3 fail_timeout=10s down;\n',
    );
  });

  it('refuses a file whose upstream or listen line it cannot find, rather than run something else', () => {
    expect(() => renderSite(template.replace('listen 80;', 'listen 8080;'), [4101], 8181)).toThrow(/listen 80;/);
    expect(() => renderSite(template.replace('upstream api', 'upstream backend'), [4101], 8181)).toThrow(
      /upstream api/,
    );
  });
});
