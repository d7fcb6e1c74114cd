import { spawn } from 'node:child_process';
import { freePort } from '../../test/support/ports';

/** The OpenAI path of the fake backend; Portkey appends `/chat/completions` to its custom host. */
export const OPENAI_PATH = '/v1/chat/completions';

/** A chat completion in OpenAI's format, as the fake backend answers it. */
export const OPENAI_REPLY = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
});

/** The same message as the service's, in OpenAI's format. */
export const OPENAI_BODY = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'What is a loop?' }],
});

/**
 * Portkey's open-source gateway (`@portkey-ai/gateway`, the peer) as `npx @portkey-ai/gateway`
 * starts it, in a process of its own, on a free port; `headers` route a request through it to the
 * fake backend (provider openai, the backend as custom host: 127.0.0.1 is one of its trusted hosts).
 */
export async function startPortkey(
  backend: string,
): Promise<{ url: string; headers: Record<string, string>; stop(): Promise<void> }> {
  const port = await freePort();
  const server = require.resolve('@portkey-ai/gateway/build/start-server.js');
  // --headless: no log console (it would keep every request for its UI); stdout piped, it clears the screen.
  const child = spawn(process.execPath, [server, `--port=${port}`, '--headless'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`Portkey's gateway exited (${code}) before it was ready: ${out}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready for connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer sk-bench',
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': `${backend}/v1`,
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
