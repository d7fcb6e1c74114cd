import { ConfigError } from '../config';

/** Where a script's password may come from, and where it may not (named in every refusal). */
export const PASSWORD_SOURCES = 'type it at the prompt, pipe it on standard input, or set ADMIN_PASSWORD';

/**
 * The password of a command-line script, never from its arguments: npm prints the command line it
 * runs, and the shell's history and the process list keep it. In order: the ADMIN_PASSWORD variable;
 * at a terminal, typed twice with no echo; otherwise standard input up to its first line's end.
 */
export async function readPassword(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.ADMIN_PASSWORD) return env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) return firstLine(await readAll(process.stdin));
  const first = await askHidden('Password: ');
  const again = await askHidden('Password again: ');
  if (first !== again) throw new ConfigError('The two passwords differ: nothing was changed.');
  return first;
}

/** The text up to the first line break: `echo "$PW" |` and `< file` end it with one. */
function firstLine(text: string): string {
  const password = text.split(/\r?\n/, 1)[0];
  if (!password) throw new ConfigError(`No password on standard input: ${PASSWORD_SOURCES}.`);
  return password;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One line typed at the terminal in raw mode, so the terminal shows none of it; Backspace erases,
 * Enter ends it, Ctrl-C gives up. The prompt goes to standard error, which the terminal shows
 * whatever is done with the output.
 */
function askHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  // Echo off before the prompt shows: what is typed once it shows must not appear.
  input.setRawMode(true);
  process.stderr.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (keys: string) => {
      for (const key of keys) {
        if (key === '\r' || key === '\n' || key === '\u0004') return finish();
        if (key === '\u0003') return finish(new ConfigError('Interrupted: nothing was changed.'));
        if (key === '\u007f' || key === '\b') typed = [...typed].slice(0, -1).join('');
        else if (key >= ' ') typed += key;
      }
    };
    input.on('data', onData);
  });
}
