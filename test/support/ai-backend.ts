import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Behaviour = 'ok' | 'fail' | 'refuse' | 'slow-stream';

/** A real HTTP server playing the AI backend of docs/ai-backend.md. */
export async function startAiBackend(port = 0) {
  const seen: SeenRequest[] = [];
  const state = { behaviour: 'ok' as Behaviour, delayMs: 0, streamAborted: false, streamChunks: 5, chunkDelayMs: 60 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      if (state.behaviour === 'fail') return res.writeHead(500).end('{"oops":true}');
      if (state.behaviour === 'refuse')
        return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"nope"}');
      const json = (value: unknown, status = 200) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method === 'POST' && req.url === '/chat') {
        const { message, conversationId } = JSON.parse(body) as { message: string; conversationId?: string };
        if (!req.headers.accept?.includes('text/event-stream'))
          return json({
            conversationId: conversationId ?? 'conv-1',
            reply: `You said: ${message}`,
            usage: { totalTokens: 42 },
          });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.on('close', () => {
          if (!res.writableFinished) state.streamAborted = true;
        });
        for (let i = 0; i < state.streamChunks; i++) {
          if (res.destroyed) return;
          res.write(`data: ${JSON.stringify({ delta: `part ${i} ` })}\n\n`);
          await new Promise((resolve) => setTimeout(resolve, state.chunkDelayMs));
        }
        return res.end(
          `event: done\ndata: ${JSON.stringify({ conversationId: 'conv-1', usage: { totalTokens: 7 } })}\n\n`,
        );
      }
      if (req.method === 'GET' && req.url === '/conversations')
        return json({ items: [{ id: 'conv-1', title: 'Loops', updatedAt: '2026-11-01T10:00:00Z' }] });
      if (req.method === 'GET' && req.url === '/memory')
        return json({ items: [{ id: 'mem-1', content: 'Likes Python', createdAt: '2026-11-01T10:00:00Z' }] });
      if (req.method === 'DELETE' && req.url === '/memory') return res.writeHead(204).end();
      json({ error: 'unknown' }, 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    seen,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type AiBackendFake = Awaited<ReturnType<typeof startAiBackend>>;
