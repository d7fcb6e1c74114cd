/**
 * The program of one Python worker process, run as `node -e <source> <settings JSON>` inside the
 * sandbox that python-pool.ts builds (no environment, user nobody, no network, Node's permission
 * model allowing reads of the Pyodide package only, no code generation from strings).
 *
 * It is a string, not a module, so the same file works under vitest (TypeScript sources) and from
 * dist/ without a build step copying a .js file. Its Python half is python-driver.source.ts.
 *
 * Modes:
 * - `build`: load Pyodide from scratch, import the modules programs use most, write a memory
 *   snapshot of that interpreter to stdout (raw bytes) and exit. The pool does this once at start-up.
 * - `run`: load Pyodide from the snapshot file open on fd 3 (about 1.7 s of CPU here), cut the
 *   interpreter off from Pyodide's JavaScript side (python-driver.source.ts), say `{"t":"ready"}`,
 *   then wait for a job on stdin: stream its output as `{"t":"o"|"e","d":<base64>}` lines and end it
 *   with `{"t":"done",...}`. A process serves one person's one piece of code: a run, or the tests
 *   of one submission one after another (each program in a fresh namespace); the pool kills it
 *   after the last, and nothing a program does to the interpreter (codecs, streams, caches, the
 *   heap) can reach anyone else's.
 *
 * The parent trusts none of these messages beyond the run they belong to: a program that escapes
 * to JavaScript can write anything to stdout, so the parent caps sizes, enforces the time limit by
 * killing, and counts output itself.
 */
export const pythonWorkerSource = String.raw`
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const settings = JSON.parse(process.argv[1]);
// Synchronous writes to fd 1, retried while the pipe is full: stopHere() exits right after, in the
// middle of the program, and nothing written may be lost.
const send = (m) => {
  const data = Buffer.from(JSON.stringify(m) + '\n');
  let at = 0;
  while (at < data.length) {
    try {
      at += fs.writeSync(1, data, at);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
};

// Pyodide asks process.binding('constants') for NODEFS flags; the permission model refuses
// process.binding, so answer that one question from the public modules.
const binding = process.binding;
process.binding = (name) => (name === 'constants' ? { fs: fs.constants, os: os.constants } : binding.call(process, name));

// Emscripten names the program after process.argv[1] (here the settings, which hold the host's
// path to Pyodide) and shows it to Python as sys.executable, sys.orig_argv and $_: it sees none.
process.argv.length = 1;

const BLOCKED = ['js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'micropip', 'pyodide_http', 'ctypes', '_ctypes', '_testcapi', '_testinternalcapi', '_testlimitedcapi', '_testbuffer', '_testmultiphase', '_testsinglephase', '_testimportmultiple', '_xxtestfuzz', '_testclinic'];

// What most programs import, loaded into the snapshot: importing it in a run costs nothing.
const PRELOAD = ['math', 'random', 'string', 'itertools', 'functools', 'operator', 'collections', 'collections.abc', 'heapq', 'bisect', 're', 'json', 'time', 'datetime', '_strptime', 'statistics', 'fractions', 'decimal', 'textwrap', 'copy', 'dataclasses', 'enum', 'typing', 'array', 'unicodedata', 'struct', 'abc', 'numbers', 'keyword', 'calendar', 'pprint', 'encodings.ascii', 'encodings.latin_1'];

// How a program may end and leave the interpreter to the next test of the same submission.
const CLEAN = ['ok', 'runtime_error', 'syntax_error'];

// python-driver.source.ts, given in the settings: run(), made by _codelab_setup in a namespace of its own.
const DRIVER = settings.driver;

async function main() {
  const { loadPyodide } = await import(settings.indexURL + 'pyodide.mjs');
  if (settings.mode === 'build') {
    const py = await loadPyodide({ indexURL: settings.indexURL, _makeSnapshot: true, jsglobals: settings.jsGlobals ? globalThis : {} });
    py.runPython('for _n in ' + JSON.stringify(PRELOAD) + ':\n    try: __import__(_n)\n    except BaseException: pass\ndel _n');
    const snapshot = py.makeMemorySnapshot();
    process.stdout.write(snapshot, () => process.exit(0));
    return;
  }
  const snapshot = settings.snapshot ? fs.readFileSync(3) : undefined;
  const py = await loadPyodide({
    indexURL: settings.indexURL,
    jsglobals: settings.jsGlobals ? globalThis : Object.create(null),
    ...(snapshot ? { _loadSnapshot: snapshot } : {}),
  });
  const memory = () => py._module.HEAP8.buffer.byteLength;

  let job = null;
  let written = 0;
  let started = 0;
  // The run is over, or its output overflowed (then the process stops in the middle of the
  // program): say so and sleep without using CPU until the parent, having read its CPU time, kills it.
  const stopHere = (status) => {
    send({ t: 'done', status, timeMs: Math.round(performance.now() - started) });
    try {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
    } finally {
      process.exit(0);
    }
  };
  const writer = (tag) => ({
    isatty: false,
    write(buf) {
      const room = job ? job.outputLimitBytes - written : 0;
      const chunk = Buffer.from(buf.subarray(0, Math.max(0, Math.min(buf.length, room))));
      if (chunk.length) send({ t: tag, d: chunk.toString('base64') });
      written += chunk.length;
      if (job && buf.length > room) stopHere('output_limit_exceeded');
      return buf.length;
    },
  });
  py.setStdout(writer('o'));
  py.setStderr(writer('e'));

  const namespace = py.runPython('dict()');
  py.runPython(DRIVER, { globals: namespace });
  const setup = namespace.get('_codelab_setup');
  namespace.destroy();
  // After this call Python holds no reference to Pyodide's JavaScript side (when the guard is on),
  // so nothing below may go through Pyodide's Python API (runPython needs it): only run().
  const run = setup(py.toPy(settings.importGuard ? BLOCKED : []), py.toPy(PRELOAD));
  setup.destroy();
  const baseHeap = memory();

  let input = '';
  // One job a line. After a clean end (the program returned or raised) the process says
  // {"t":"done","next":true} and waits for another job of the same submission; the pool sends one
  // only when it has one, so a run of its own still ends with the kill.
  const runJob = (line) => {
    job = JSON.parse(line);
    written = 0;
    started = performance.now();
    let status;
    try {
      status = run(job.code, job.stdin);
    } catch (e) {
      // Pyodide itself failed (typically the wasm heap could not grow any more).
      const text = String((e && e.message) || e);
      status = /memory|allocation|RangeError/i.test(text) ? 'memory_limit_exceeded' : 'runtime_error';
      send({ t: 'e', d: Buffer.from(status === 'memory_limit_exceeded' ? 'MemoryError: the program used more memory than allowed\n' : 'The program stopped the interpreter.\n').toString('base64') });
      stopHere(status);
    }
    if (status === 'ok' && memory() - baseHeap > job.memoryLimitBytes) status = 'memory_limit_exceeded';
    // A program that ran out of memory leaves an interpreter in no state to trust: it ends here.
    if (!CLEAN.includes(status)) stopHere(status);
    send({ t: 'done', status, timeMs: Math.round(performance.now() - started), next: true });
    job = null;
  };
  process.stdin.setEncoding('utf8');
  // The service went away: nothing more to do.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('data', (chunk) => {
    input += chunk;
    let nl;
    while (!job && (nl = input.indexOf('\n')) >= 0) {
      const line = input.slice(0, nl);
      input = input.slice(nl + 1);
      runJob(line);
    }
  });
  send({ t: 'ready' });
}

main().catch((e) => {
  process.stderr.write('python worker failed: ' + String((e && e.stack) || e).slice(0, 2000) + '\n');
  process.exit(70);
});
`;
