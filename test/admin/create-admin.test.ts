import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { uniqueEmail } from '../support/users';

const SCRIPT = 'dist/src/scripts/create-admin.js';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface Run {
  code: number | null;
  /** Standard output and error together, as a terminal would show them. */
  output: string;
  stderr: string;
}

/**
 * The script as `npm run admin:create` runs it; `converse` may write to its standard input as its
 * output arrives (a terminal's typing), else `input` is written and the input closed.
 */
function run(
  command: string,
  args: string[],
  options: {
    env?: Record<string, string>;
    input?: string;
    converse?: (output: () => string, write: (text: string) => void) => Promise<void>;
  } = {},
): Promise<Run> {
  const child = spawn(command, args, {
    env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent', ...options.env },
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const ended = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, output, stderr })));
  if (options.converse)
    void options.converse(
      () => output,
      (text) => child.stdin.write(text),
    );
  else child.stdin.end(options.input ?? '');
  return ended;
}

const secret = () => `pass-${randomUUID()}`;

/** The run made the admin, who logs in with the password, and showed the password nowhere. */
async function expectCreated(result: Run, email: string, password: string): Promise<void> {
  expect(result.output).toContain(`Created admin ${email}`);
  expect(result.output).not.toContain(password);
  expect(result.code).toBe(0);
  const login = await t.http.post('/auth/login', { email, password });
  expect(login.status).toBe(200);
  expect(login.body.user).toMatchObject({ email, emailVerified: true });
  expect(login.body.user.roles).toContain('admin');
}

describe('npm run admin:create', () => {
  it.each([
    ['standard input', (password: string) => ({ input: `${password}\n` })],
    ['ADMIN_PASSWORD', (password: string) => ({ env: { ADMIN_PASSWORD: password } })],
  ])(
    'reads the password from %s, and prints it nowhere',
    async (_source, given) => {
      const email = uniqueEmail('first-admin');
      const password = secret();
      await expectCreated(await run('node', [SCRIPT, '--email', email], given(password)), email, password);
    },
    60_000,
  );

  it('refuses --password on the command line, says why and what to do instead, and changes nothing', async () => {
    const email = uniqueEmail('refused');
    const password = secret();
    const results = await Promise.all([
      run('node', [SCRIPT, '--email', email, '--password', password]),
      run('node', [SCRIPT, `--password=${password}`, '--email', email]),
    ]);
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        "--password is refused: npm prints the command line it runs, and the shell's history keeps it. Instead, type it at the prompt, pipe it on standard input, or set ADMIN_PASSWORD.",
      );
      expect(result.output).not.toContain(password);
    }
    expect((await t.http.post('/auth/login', { email, password })).status).toBe(401);
  }, 60_000);

  it('reports bad input in one line with a non-zero exit, echoing no argument', async () => {
    const password = secret();
    // Four runs at once: each loads the whole service, seconds apiece on a busy machine.
    const failures = await Promise.all([
      run('node', [SCRIPT, '--email', 'not-an-email'], { input: `${password}\n` }),
      run('node', [SCRIPT, '--email', uniqueEmail()], { input: 'short\n' }),
      run('node', [SCRIPT, '--emial', password], { input: `${password}\n` }),
      run('node', [SCRIPT, '--email', uniqueEmail()], { input: '' }),
    ]);
    for (const failure of failures) {
      expect(failure.code).toBe(1);
      expect(failure.stderr.trim().split('\n')).toHaveLength(1);
      expect(failure.output).not.toContain(password);
    }
    expect(failures[2].stderr).toContain('Usage: npm run admin:create -- --email <address>');
    expect(failures[3].stderr).toContain('No password on standard input');
  }, 90_000);

  // util-linux's `script` runs the command on a pseudo-terminal: what is typed reaches it as from a
  // keyboard, and everything the terminal shows, echo included, comes back as output.
  it.skipIf(!existsSync('/usr/bin/script'))(
    'asks twice at a terminal, and the terminal shows none of what is typed',
    async () => {
      const email = uniqueEmail('tty-admin');
      const password = secret();
      // Typed once the prompt is shown: the terminal would echo what is typed before the script turns echo off.
      const typeAfter = async (output: () => string, prompt: string, write: (text: string) => void) => {
        await expect.poll(() => output().includes(prompt), { timeout: 30_000 }).toBe(true);
        write(`${password}\r`);
      };
      const result = await run('script', ['-qefc', `node ${SCRIPT} --email ${email}`, '/dev/null'], {
        converse: async (output, write) => {
          await typeAfter(output, 'Password: ', write);
          await typeAfter(output, 'Password again: ', write);
        },
      });
      await expectCreated(result, email, password);
    },
    60_000,
  );
});
