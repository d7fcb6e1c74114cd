import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
  headers: IncomingHttpHeaders;
  at: number;
}

/** What the server answers a chat request: an HTTP status, or a message whose content is `content`. */
export type ChatAnswer = { status: number } | { content: string };

/**
 * A real HTTP server speaking the OpenAI-compatible API (as vLLM, Ollama or llama.cpp do):
 * `POST /v1/chat/completions` answered by `state.chat`, `POST /v1/moderations` by `state.flag`.
 */
export async function startModelServer() {
  const chats: ChatRequest[] = [];
  const moderated: string[][] = [];
  const state = {
    chat: (_request: ChatRequest): ChatAnswer => ({ status: 500 }),
    /** The moderation categories of a text, none when it is fine. */
    flag: (_text: string): string[] => [],
    /** How long each chat answer takes, as a model's latency. */
    delayMs: 0,
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      const json = (value: unknown, status = 200) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        const request = { ...JSON.parse(body), headers: req.headers, at: Date.now() } as ChatRequest;
        chats.push(request);
        const answer = state.chat(request);
        if ('status' in answer) return json({ error: { message: 'model failed' } }, answer.status);
        return json({
          id: `chat-${chats.length}`,
          object: 'chat.completion',
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
        });
      }
      if (req.method === 'POST' && req.url === '/v1/moderations') {
        const { input } = JSON.parse(body) as { input: string[] };
        moderated.push(input);
        return json({
          id: 'modr-1',
          results: input.map((text) => {
            const categories = state.flag(text);
            return { flagged: categories.length > 0, categories: Object.fromEntries(categories.map((c) => [c, true])) };
          }),
        });
      }
      json({ error: { message: 'not found' } }, 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    chats,
    moderated,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The user prompt of a chat request (what the stage asked). */
export const promptOf = (request: ChatRequest) => request.messages.find((m) => m.role === 'user')!.content;
