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
 * - `run`: load Pyodide from the snapshot read from fd 3 (about 0.3 s instead of 3 s), install the
 *   import guard and the audit hook, take stock of the interpreter's state, say `{"t":"ready"}`,
 *   then run jobs read from stdin one at a time: stream a job's output as `{"t":"o"|"e","d":<base64>}`
 *   lines, end it with `{"t":"done",...}`, then put the interpreter back as it was (builtins,
 *   sys.modules and every module's namespace, the containers and objects they hold, the
 *   environment, the working directory, the files and descriptors of the run; every run gets fresh
 *   globals) and say `{"t":"ready"}` again, or `{"t":"recycle"}` and exit when something could not
 *   be put back.
 *
 * What keeps one run from reaching the next in the same process:
 * - the file system outside /tmp and the home directory refuses every change (checked in the
 *   Emscripten FS, in JavaScript, out of Python's reach); both are emptied after each run, and file
 *   descriptors a run left open are closed;
 * - an audit hook refuses the ways to the interpreter's internals (frames, the garbage collector's
 *   lists, tracing, ctypes) and changes to classes and functions that existed before the run, so a
 *   program can neither reach the driver's record of the interpreter nor leave code in a class;
 * - the reset restores every module namespace, the containers and objects they hold, checks by
 *   identity that everything is as it was, and recycles the process when it is not, when the run
 *   imported a module for the first time (extension modules keep state of their own), hit a limit
 *   or crashed; the pool also recycles a process after CODELAB_PYTHON_RUNS_PER_WORKER runs.
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

const BLOCKED = ['js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'micropip', 'pyodide_http', 'ctypes', '_ctypes', '_testcapi', '_testinternalcapi', '_testlimitedcapi', '_testbuffer', '_testmultiphase', '_testsinglephase', '_testimportmultiple', '_xxtestfuzz', '_testclinic'];

// What most programs import, loaded into the snapshot: importing it in a run costs nothing, and
// a run that imports nothing new can hand its process on.
const PRELOAD = ['math', 'random', 'string', 'itertools', 'functools', 'operator', 'collections', 'collections.abc', 'heapq', 'bisect', 're', 'json', 'time', 'datetime', '_strptime', 'statistics', 'fractions', 'decimal', 'textwrap', 'copy', 'dataclasses', 'enum', 'typing', 'array', 'unicodedata', 'struct', 'abc', 'numbers', 'keyword', 'calendar', 'pprint', 'encodings.ascii', 'encodings.latin_1'];

// Defence in depth, not the guarantee: take away the modules that lead from Python to
// JavaScript objects. The process around the interpreter is what holds when this is bypassed.
const IMPORT_GUARD = [
  'import sys',
  'class _CodelabBlocked:',
  '    blocked = (' + BLOCKED.map((name) => JSON.stringify(name)).join(', ') + ',)',
  '    def find_spec(self, name, path=None, target=None):',
  '        if name.split(".")[0] in self.blocked:',
  '            raise ImportError("module " + repr(name) + " is not available in CodeLab")',
  '        return None',
  'sys.meta_path.insert(0, _CodelabBlocked())',
  'for _name in list(sys.modules):',
  '    if _name.split(".")[0] in _CodelabBlocked.blocked: sys.modules[_name] = None',
  'del _name',
].join('\n');

// python-driver.source.ts, given in the settings: run() and reset(), made by _codelab_setup in a namespace of their own.
const DRIVER = settings.driver;

/**
 * Nothing outside the scratch directories may change (new files, writes, renames, deletions,
 * modes, times), whatever path leads there (links resolve to the node). Returns the reset of the
 * scratch directories and descriptors.
 */
function guardFileSystem(FS, scratch) {
  const frozen = new WeakSet();
  const inScratch = (path) => scratch.some((dir) => path === dir || path.startsWith(dir + '/'));
  const walk = (path) => {
    let node;
    try {
      node = FS.lookupPath(path, { follow: false }).node;
    } catch {
      return;
    }
    if (inScratch(path) || FS.isChrdev(node.mode)) return;
    frozen.add(node);
    if (!FS.isDir(node.mode) || path === '/proc') return;
    for (const name of FS.readdir(path)) if (name !== '.' && name !== '..') walk((path === '/' ? '' : path) + '/' + name);
  };
  walk('/');
  const refuse = () => {
    throw new FS.ErrnoError(2);
  };
  const parent = (path) => FS.lookupPath(path, { parent: true }).node;
  const node = (path, follow) => FS.lookupPath(path, { follow, noent_okay: true }).node;
  const guard = (name, refused) => {
    const original = FS[name];
    FS[name] = function (...args) {
      if (refused(...args)) refuse();
      return original.apply(this, args);
    };
  };
  const writes = (flags) => (typeof flags === 'string' ? /[wa+]/.test(flags) : (flags & 3) !== 0 || (flags & 512) !== 0 || (flags & 64) !== 0);
  guard('mknod', (path) => frozen.has(parent(path)));
  guard('symlink', (_target, path) => frozen.has(parent(path)));
  guard('rename', (from, to) => frozen.has(parent(from)) || frozen.has(parent(to)) || frozen.has(node(from, false)));
  guard('rmdir', (path) => frozen.has(parent(path)) || scratch.includes(path));
  guard('unlink', (path) => frozen.has(parent(path)));
  guard('doSetAttr', (_stream, target) => frozen.has(target));
  guard('doTruncate', (_stream, target) => frozen.has(target));
  guard('write', (stream) => frozen.has(stream.node));
  guard('msync', (stream) => frozen.has(stream.node));
  guard('open', (path, flags) => {
    if (!writes(flags)) return false;
    const target = typeof path === 'object' ? path : node(path, true);
    return target ? frozen.has(target) : false;
  });
  const entries = new Map(scratch.map((dir) => [dir, { names: new Set(FS.readdir(dir)), mode: FS.stat(dir).mode }]));
  const remove = (path) => {
    const stat = FS.lstat(path);
    if (FS.isDir(stat.mode)) {
      FS.chmod(path, 0o777);
      for (const name of FS.readdir(path)) if (name !== '.' && name !== '..') remove(path + '/' + name);
      FS.rmdir(path);
    } else FS.unlink(path);
  };
  const baseStreams = FS.streams.slice();
  return function resetFiles(home) {
    let clean = true;
    try {
      for (const [dir, base] of entries) {
        FS.chmod(dir, base.mode);
        const now = new Set(FS.readdir(dir));
        for (const name of base.names) if (!now.has(name)) clean = false;
        for (const name of now) if (!base.names.has(name)) remove(dir + '/' + name);
      }
      FS.chdir(home);
      for (let fd = 0; fd < FS.streams.length; fd++) {
        const stream = FS.streams[fd];
        if (stream === baseStreams[fd]) continue;
        if (baseStreams[fd]) clean = false;
        else if (stream) FS.close(stream);
      }
    } catch {
      clean = false;
    }
    return clean;
  };
}

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
  // When the output overflows, the process stops where it is (in the middle of the program) and
  // sleeps without using CPU until the parent, having read its CPU time, kills it.
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
  if (settings.importGuard) py.runPython(IMPORT_GUARD);

  const FS = py.FS;
  const home = FS.cwd();
  const resetFiles = settings.reuse ? guardFileSystem(FS, ['/tmp', home]) : null;
  const namespace = py.runPython('dict()');
  py.runPython(DRIVER, { globals: namespace });
  const setup = namespace.get('_codelab_setup');
  namespace.destroy();
  const pair = setup(py.toPy(settings.importGuard ? BLOCKED : []), py.toPy(['/tmp', home]), py.toPy(PRELOAD));
  setup.destroy();
  const run = pair.get(0);
  const reset = pair.get(1);
  pair.destroy();
  const baseHeap = memory();

  let input = '';
  process.stdin.setEncoding('utf8');
  // The service went away: nothing more to do.
  process.stdin.on('end', () => process.exit(0));
  const next = () => {
    const nl = input.indexOf('\n');
    if (nl < 0 || job) return;
    job = JSON.parse(input.slice(0, nl));
    input = input.slice(nl + 1);
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
    send({ t: 'done', status, timeMs: Math.round(performance.now() - started) });
    const limit = job.memoryLimitBytes;
    job = null;
    // Handed on only after a run that ended by itself and left half the heap free.
    let clean = Boolean(settings.reuse) && ['ok', 'runtime_error', 'syntax_error'].includes(status) && memory() - baseHeap <= limit / 2;
    if (clean) {
      try {
        clean = reset() === true;
      } catch {
        clean = false;
      }
      clean = resetFiles(home) && clean;
    }
    if (!clean) {
      send({ t: 'recycle' });
      process.exit(0);
    }
    send({ t: 'ready' });
    setImmediate(next);
  };
  process.stdin.on('data', (chunk) => {
    input += chunk;
    next();
  });
  send({ t: 'ready' });
}

main().catch((e) => {
  process.stderr.write('python worker failed: ' + String((e && e.stack) || e).slice(0, 2000) + '\n');
  process.exit(70);
});
`;
