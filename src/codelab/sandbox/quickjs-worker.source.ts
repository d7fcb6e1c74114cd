/**
 * The program of one JavaScript worker thread (a string for the same reason as
 * python-worker.source.ts). The learner's code runs inside QuickJS, an engine compiled to
 * WebAssembly: it shares no object with Node. Each run gets a fresh runtime and context with a
 * memory limit, a stack limit and an interrupt handler for the time and output limits; the only
 * bridge out is one host function that appends text to the run's output, handed to a prelude as
 * an argument and never put on the global object.
 */
export const quickjsWorkerSource = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { newQuickJSWASMModule, newVariant, RELEASE_SYNC } = require(workerData.quickjsPath);

const fs = require('node:fs');

const STACK_BYTES = 512 * 1024;

// CPU time of this thread in ms (10 ms ticks), or null without /proc. The time limit counts CPU
// time, so a run that waits for a core on a busy machine is not charged for the wait.
function threadCpuMs() {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

// Runs inside QuickJS: console, readLine()/input() over the run's stdin, and a small inspector
// that prints values the way Node does for the common cases.
const PRELUDE = [
  '(function (write, stdin) {',
  '  "use strict";',
  '  const lines = stdin.length ? stdin.replace(/\\r\\n/g, "\\n").replace(/\\n$/, "").split("\\n") : [];',
  '  let next = 0;',
  '  const inspect = (v, depth, seen) => {',
  '    if (typeof v === "string") return depth ? "\u0027" + v + "\u0027" : v;',
  '    if (typeof v === "bigint") return String(v) + "n";',
  '    if (typeof v === "function") return "[Function: " + (v.name || "(anonymous)") + "]";',
  '    if (typeof v === "symbol") return v.toString();',
  '    if (v === null || typeof v !== "object") return String(v);',
  '    if (v instanceof Error) return v.stack ? v.name + ": " + v.message + "\\n" + v.stack : String(v);',
  '    if (seen.includes(v)) return "[Circular]";',
  '    if (depth > 2) return Array.isArray(v) ? "[Array]" : "[Object]";',
  '    const inner = seen.concat([v]);',
  '    if (Array.isArray(v)) return v.length ? "[ " + v.map((x) => inspect(x, depth + 1, inner)).join(", ") + " ]" : "[]";',
  '    if (v instanceof Map) return "Map(" + v.size + ") { " + Array.from(v, ([k, x]) => inspect(k, depth + 1, inner) + " => " + inspect(x, depth + 1, inner)).join(", ") + " }";',
  '    if (v instanceof Set) return "Set(" + v.size + ") { " + Array.from(v, (x) => inspect(x, depth + 1, inner)).join(", ") + " }";',
  '    const keys = Object.keys(v);',
  '    return keys.length ? "{ " + keys.map((k) => k + ": " + inspect(v[k], depth + 1, inner)).join(", ") + " }" : "{}";',
  '  };',
  '  const format = (args) => args.map((a) => inspect(a, 0, [])).join(" ") + "\\n";',
  '  const out = (fd) => (...args) => { write(fd, format(args)); };',
  '  globalThis.console = { log: out(1), info: out(1), debug: out(1), warn: out(2), error: out(2) };',
  '  globalThis.print = out(1);',
  '  globalThis.stdin = stdin;',
  '  globalThis.readLine = () => (next < lines.length ? lines[next++] : null);',
  '  globalThis.input = (prompt) => { if (prompt !== undefined) write(1, String(prompt)); return globalThis.readLine(); };',
  '})',
].join('\n');

let quickjs = null;

function run(job) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(job.memoryLimitBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  const out = [];
  const err = [];
  let bytes = 0;
  let stop = null;
  const started = performance.now();
  const cpuAtStart = threadCpuMs();
  const used = () => {
    const now = cpuAtStart === null ? null : threadCpuMs();
    return now === null ? performance.now() - started : now - cpuAtStart;
  };
  // Reading /proc costs microseconds, so it happens only once the wall clock says the limit
  // could have been reached. QuickJS never waits, so wall time beyond CPU time is only a busy
  // machine's, and is not charged (the pool's hard stop covers an engine stuck in native code).
  let checkAt = started + job.timeLimitMs;
  runtime.setInterruptHandler(() => {
    if (stop) return true;
    const now = performance.now();
    if (now < checkAt) return false;
    const spent = used();
    if (spent >= job.timeLimitMs) stop = 'time_limit_exceeded';
    else checkAt = now + Math.max(10, job.timeLimitMs - spent);
    return stop !== null;
  });
  const context = runtime.newContext();
  let status = 'ok';
  let broken = false;
  try {
    const write = context.newFunction('write', (fdHandle, textHandle) => {
      if (stop) return;
      const text = context.getString(textHandle);
      const data = Buffer.from(text, 'utf8');
      const room = job.outputLimitBytes - bytes;
      (context.getNumber(fdHandle) === 2 ? err : out).push(data.subarray(0, Math.max(0, room)));
      bytes += Math.min(data.length, Math.max(0, room));
      if (data.length > room) stop = 'output_limit_exceeded';
    });
    const stdin = context.newString(job.stdin);
    const prelude = context.unwrapResult(context.evalCode(PRELUDE, 'prelude.js', { type: 'global' }));
    context.unwrapResult(context.callFunction(prelude, context.undefined, write, stdin)).dispose();
    prelude.dispose();
    stdin.dispose();
    write.dispose();

    const describe = (handle) => {
      const e = context.dump(handle);
      handle.dispose();
      if (e && typeof e === 'object') {
        const head = (e.name || 'Error') + ': ' + (e.message || '');
        const frames = String(e.stack || '').split('\n').filter(Boolean);
        const stack = frames.slice(0, 10).join('\n') + (frames.length > 10 ? '\n    ... ' + (frames.length - 10) + ' more frames' : '');
        return { name: e.name, message: e.message, text: head + '\n' + (stack ? stack + '\n' : '') };
      }
      return { name: 'Error', message: String(e), text: 'Uncaught ' + String(e) + '\n' };
    };
    const compiled = context.evalCode(job.code, 'main.js', { type: 'global', compileOnly: true });
    if (compiled.error) {
      const e = describe(compiled.error);
      status = e.name === 'SyntaxError' ? 'syntax_error' : 'runtime_error';
      err.push(Buffer.from(e.text));
    } else {
      compiled.value.dispose();
      const result = context.evalCode(job.code, 'main.js', { type: 'global' });
      let failure = null;
      if (result.error) failure = describe(result.error);
      else {
        result.value.dispose();
        // Promise jobs run in C, where the interrupt handler is not asked: a thousand at a time,
        // with the time limit checked in between.
        while (!stop && runtime.hasPendingJob()) {
          const jobs = runtime.executePendingJobs(1000);
          if (jobs.error) {
            failure = describe(jobs.error);
            break;
          }
          if (used() >= job.timeLimitMs) stop = 'time_limit_exceeded';
        }
      }
      if (stop) status = stop;
      else if (failure) {
        status = failure.message === 'out of memory' ? 'memory_limit_exceeded' : 'runtime_error';
        err.push(Buffer.from(failure.text));
      }
    }
  } catch (e) {
    // The engine itself failed (an exception out of wasm): report it and replace this thread.
    broken = true;
    const text = String((e && e.message) || e);
    status = /memory/i.test(text) ? 'memory_limit_exceeded' : 'runtime_error';
    err.push(Buffer.from(status === 'memory_limit_exceeded' ? 'InternalError: out of memory\n' : 'InternalError: the interpreter failed\n'));
  }
  if (stop) status = stop;
  // The memory reached its ceiling: an allocation failed somewhere, perhaps where the program
  // could not see it (a promise chain that ends in an unhandled rejection). The thread goes, so the
  // next run starts with room.
  if (memory.buffer.byteLength >= MAX_BYTES - 4 * 1024 * 1024) {
    broken = true;
    if (status === 'ok') {
      status = 'memory_limit_exceeded';
      err.push(Buffer.from('InternalError: out of memory\n'));
    }
  }
  const timeMs = stop === 'time_limit_exceeded' ? job.timeLimitMs : Math.round(used());
  try {
    context.dispose();
    runtime.dispose();
  } catch {
    broken = true;
  }
  if (status === 'time_limit_exceeded') err.push(Buffer.from('Time limit exceeded: the program ran longer than ' + job.timeLimitMs + ' ms.\n'));
  return {
    status,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    timeMs,
    broken,
  };
}

parentPort.on('message', (job) => {
  parentPort.postMessage({ t: 'done', result: run(job) });
});

// Growing the wasm memory step by step costs seconds of CPU the first time (each step copies it);
// doing it once here, before the first run, keeps that cost out of every learner's time limit.
function growMemoryOnce() {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(workerData.memoryLimitBytes);
  const context = runtime.newContext();
  // To three quarters of the ceiling: a run that reaches the ceiling is one that ran out of memory.
  const megabytes = Math.floor((MAX_BYTES * 0.75 - memory.buffer.byteLength) / (1 << 20));
  const result = context.evalCode('const a = []; for (let i = 0; i < ' + megabytes + '; i++) a.push(new Uint8Array(1 << 20));', 'warm-up.js', { type: 'global' });
  if (result.error) result.error.dispose();
  else result.value.dispose();
  context.dispose();
  runtime.dispose();
}

// The module's WebAssembly memory has a ceiling: the engine's own 16 MiB, the run's limit and some
// room. QuickJS's malloc limit does not count the bytes of typed arrays, so without the ceiling a
// run could grow the memory to the 2 GiB of wasm32 (and keep it: wasm memory never shrinks).
const PAGE = 64 * 1024;
const MAX_PAGES = Math.ceil((16 * 1024 * 1024 + workerData.memoryLimitBytes + 32 * 1024 * 1024) / PAGE);
const MAX_BYTES = MAX_PAGES * PAGE;
const memory = new WebAssembly.Memory({ initial: 256, maximum: MAX_PAGES });

newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory })).then(
  (module) => {
    quickjs = module;
    growMemoryOnce();
    parentPort.postMessage({ t: 'ready' });
  },
  (e) => {
    throw e;
  },
);
`;
