import './production';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

/** Every benchmark, in the order run; each prints its own baseline, measured in its run, and the ratio. */
const benches: { name: string; script: string; nodeArgs?: string[] }[] = [
  { name: 'bench (GET /auth/me, its GraphQL twin, bare express + pg)', script: 'http/run.js' },
  { name: 'bench:ai-proxy', script: 'ai-proxy/run.js' },
  { name: 'bench:learning', script: 'learning/run.js' },
  { name: 'bench:dashboard', script: 'dashboard/run.js' },
  { name: 'bench:notifications', script: 'notifications/run.js' },
  { name: 'bench:school', script: 'school/run.js' },
  { name: 'bench:reports', script: 'guardian-reports/run.js', nodeArgs: ['--expose-gc'] },
  { name: 'bench:commerce', script: 'commerce/run.js' },
  { name: 'bench:codelab', script: 'codelab/run.js' },
  { name: 'bench:classroom', script: 'classroom/run.js' },
  { name: 'bench:factory', script: 'factory/run.js' },
];

function runOne(script: string, nodeArgs: string[]): Promise<{ output: string; code: number | null; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, [...nodeArgs, join(__dirname, script)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    child.on('exit', (code) => resolve({ output, code, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

/**
 * `npm run bench:all`: the benchmarks one after the other (never two at once: they would measure
 * each other), then `bench/results.md` with every figure, the machine and the date. BENCH_ONLY
 * (comma-separated names, e.g. `bench:ai-proxy,bench:learning`) runs a subset.
 */
async function main() {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const cpu = cpus();
  const machine = `${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} free), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} at the start, Node ${process.version}, ${process.platform}`;
  const sections: string[] = [];
  for (const bench of benches) {
    if (only && !only.includes(bench.name.split(' ')[0])) continue;
    console.log(`\n=== ${bench.name}`);
    const { output, code, seconds } = await runOne(bench.script, bench.nodeArgs ?? []);
    sections.push(
      `## ${bench.name}\n\n${code === 0 ? '' : `**exited with ${code}**\n\n`}${seconds} s\n\n\`\`\`\n${output.trim()}\n\`\`\`\n`,
    );
  }
  const settings = ['BENCH_ONLY', 'BENCH_DURATION', 'BENCH_CONNECTIONS', 'BENCH_ROUNDS', 'BENCH_LEARNERS']
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]}`);
  const text = `# Benchmark results\n\nRun by \`npm run bench:all\` on ${new Date().toISOString()}.\n\nMachine: ${machine}.${settings.length ? `\n\nSettings: ${settings.join(', ')}.` : ''}\n\nEach benchmark measures its own baseline in the same run (the load generator shares the machine), so compare the ratios rather than absolute figures across machines.\n\n${sections.join('\n')}`;
  writeFileSync(join(__dirname, '..', '..', 'bench', 'results.md'), text);
  console.log('\nwritten: bench/results.md');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
