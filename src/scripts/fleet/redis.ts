import { freePort, type Member, type OutputSink, spawnMember, waitUntil } from './processes';

/** Debian's redis-server on a free port of 127.0.0.1, for rate-limit counters only: nothing is written to disk. */
export async function startRedis(onOutput: OutputSink): Promise<{ url: string; member: Member }> {
  const port = await freePort();
  const member = spawnMember(
    'redis',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { PATH: process.env.PATH },
    onOutput,
  );
  await waitUntil(
    () => Promise.resolve(member.recent().includes('Ready to accept connections')),
    30_000,
    member,
    () => `redis-server did not start:\n${member.recent()}`,
  );
  return { url: `redis://127.0.0.1:${port}`, member };
}
