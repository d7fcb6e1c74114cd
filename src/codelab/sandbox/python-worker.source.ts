/**
 * The program of one Python worker process, run as `node -e <source> <settings JSON>` inside the
 * sandbox that python-pool.ts builds (no environment, user nobody, no network, Node's permission
 * model allowing reads of the Pyodide package only, no code generation from strings).
 *
 * It is a string, not a module, so the same file works under vitest (TypeScript sources) and from
 * dist/ without a build step copying a .js file.
 *
 * Modes:
 * - `build`: load Pyodide from scratch, write a memory snapshot of the fresh interpreter to
 *   stdout (raw bytes) and exit. The pool does this once at start-up.
 * - `run`: load Pyodide from the snapshot read from fd 3 (about 0.3 s instead of 3 s), install the
 *   import guard, say `{"t":"ready"}`, run exactly one job read from stdin, stream its output as
 *   `{"t":"o"|"e","d":<base64>}` lines, end with `{"t":"done",...}` and exit. One process, one run:
 *   nothing a program leaves behind (patched builtins, JavaScript state reached through an escape,
 *   timers) outlives it.
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
// Synchronous writes to fd 1, retried while the pipe is full: finish() exits right after, in the
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

// Run the learner's program: compile first (a SyntaxError there is syntax_error, one raised by
// eval() at run time is a runtime_error), then execute in a fresh __main__ namespace.
const DRIVER = [
  'import sys, io, time, traceback, builtins',
  'def _codelab_run(code, stdin_text):',
  '    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_text.encode("utf-8", "replace")), encoding="utf-8")',
  '    status = "ok"',
  '    try:',
  '        compiled = compile(code, "main.py", "exec", dont_inherit=True)',
  '    except (SyntaxError, ValueError) as e:',
  '        traceback.print_exception(type(e), e, None, file=sys.stderr)',
  '        status = "syntax_error"',
  '    else:',
  '        try:',
  '            exec(compiled, {"__name__": "__main__", "__builtins__": builtins})',
  '        except SystemExit as e:',
  '            if e.code not in (None, 0):',
  '                status = "runtime_error"',
  '                if not isinstance(e.code, int): print(e.code, file=sys.stderr)',
  '        except MemoryError as e:',
  '            status = "memory_limit_exceeded"',
  '            print("MemoryError: the program used more memory than allowed", file=sys.stderr)',
  '        except BaseException as e:',
  '            status = "runtime_error"',
  '            traceback.print_exception(type(e), e, e.__traceback__.tb_next, file=sys.stderr)',
  '    for stream in (sys.stdout, sys.stderr):',
  '        try: stream.flush()',
  '        except BaseException: pass',
  '    return status',
].join('\n');

// Defence in depth, not the guarantee: take away the modules that lead from Python to
// JavaScript objects. The process around the interpreter is what holds when this is bypassed.
const IMPORT_GUARD = [
  'import sys',
  'class _CodelabBlocked:',
  '    blocked = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_http")',
  '    def find_spec(self, name, path=None, target=None):',
  '        if name.split(".")[0] in self.blocked:',
  '            raise ImportError("module " + repr(name) + " is not available in CodeLab")',
  '        return None',
  'sys.meta_path.insert(0, _CodelabBlocked())',
  'for _name in list(sys.modules):',
  '    if _name.split(".")[0] in _CodelabBlocked.blocked: sys.modules[_name] = None',
  'del _name',
].join('\n');

async function main() {
  const { loadPyodide } = await import(settings.indexURL + 'pyodide.mjs');
  if (settings.mode === 'build') {
    const py = await loadPyodide({ indexURL: settings.indexURL, _makeSnapshot: true, jsglobals: settings.jsGlobals ? globalThis : {} });
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
  const baseHeap = memory();

  let job = null;
  let written = 0;
  let started = 0;
  // After 'done' the process stops where it is (in the middle of the program when the output
  // overflowed) and sleeps without using CPU until the parent, having read its CPU time, kills it.
  const finish = (status) => {
    const timeMs = Math.round(performance.now() - started);
    send({ t: 'done', status, timeMs });
    try {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
    } finally {
      process.exit(0);
    }
  };
  const writer = (tag) => ({
    isatty: false,
    write(buf) {
      const room = job.outputLimitBytes - written;
      const chunk = Buffer.from(buf.subarray(0, Math.max(0, Math.min(buf.length, room))));
      if (chunk.length) send({ t: tag, d: chunk.toString('base64') });
      written += chunk.length;
      if (buf.length > room) finish('output_limit_exceeded');
      return buf.length;
    },
  });
  py.setStdout(writer('o'));
  py.setStderr(writer('e'));
  py.runPython(DRIVER);
  const run = py.globals.get('_codelab_run');
  py.runPython('del _codelab_run');
  if (settings.importGuard) py.runPython(IMPORT_GUARD);

  let input = '';
  process.stdin.setEncoding('utf8');
  // The service went away before giving a job: nothing to do.
  process.stdin.on('end', () => {
    if (!job) process.exit(0);
  });
  process.stdin.on('data', (chunk) => {
    input += chunk;
    const nl = input.indexOf('\n');
    if (nl < 0 || job) return;
    job = JSON.parse(input.slice(0, nl));
    process.stdin.pause();
    started = performance.now();
    let status;
    try {
      status = run(job.code, job.stdin);
    } catch (e) {
      // Pyodide itself failed (typically the wasm heap could not grow any more).
      const text = String((e && e.message) || e);
      status = /memory|allocation|RangeError/i.test(text) ? 'memory_limit_exceeded' : 'runtime_error';
      send({ t: 'e', d: Buffer.from(status === 'memory_limit_exceeded' ? 'MemoryError: the program used more memory than allowed\n' : 'The program stopped the interpreter.\n').toString('base64') });
    }
    if (status === 'ok' && memory() - baseHeap > job.memoryLimitBytes) status = 'memory_limit_exceeded';
    finish(status);
  });
  send({ t: 'ready' });
}

main().catch((e) => {
  process.stderr.write('python worker failed: ' + String((e && e.stack) || e).slice(0, 2000) + '\n');
  process.exit(70);
});
`;
