import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CodeRunner, pyodideDir, type RunResult } from '../../src/codelab/sandbox';
import { AppError } from '../../src/kernel/errors';

/**
 * The sandbox as a learner meets it: real Pyodide processes and real QuickJS threads, no mocks.
 * The escape tests run against three runners: the service's (every layer), one without the layers
 * inside the Python interpreter (only Node's permission model and the process around it), and one
 * with nothing but the process (namespaces, nobody, empty environment), each proving its layer.
 */

// Every Python run is a fresh process: on a machine shared with other work that takes a while.
vi.setConfig({ testTimeout: 180_000 });

const SECRET = `codelab-test-secret-${Math.random().toString(36).slice(2)}`;
// A DATA_DIR outside /tmp (the sandbox hides /tmp behind an empty tmpfs, which would prove nothing).
const dataDir = mkdtempSync(join(existsSync('/var/lib') ? '/var/lib' : process.cwd(), 'codelab-test-data-'));
let runner: CodeRunner;
let noGuard: CodeRunner;
let processOnly: CodeRunner;
let server: Server;
let port = 0;
let hits = 0;

const py = (code: string, stdin?: string) => runner.runCode({ language: 'python', code, stdin });
const js = (code: string, stdin?: string) => runner.runCode({ language: 'javascript', code, stdin });

/** Whatever a run shows, the service's secrets are not in it. */
function clean(result: RunResult): RunResult {
  expect(result.stdout + result.stderr).not.toContain(SECRET);
  return result;
}

beforeAll(async () => {
  process.env.CODELAB_TEST_SECRET = SECRET;
  writeFileSync(join(dataDir, 'jwt-secret'), SECRET, { mode: 0o644 });
  // As a fresh `mkdir` leaves it: readable by everyone. The runner must close it.
  (await import('node:fs')).chmodSync(dataDir, 0o755);
  server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  runner = new CodeRunner({ workers: 2, privateDirs: [dataDir] });
  noGuard = new CodeRunner({
    workers: 1,
    pythonSpares: 0,
    pythonLayers: { importGuard: false, emptyJsGlobals: false },
  });
  processOnly = new CodeRunner({
    workers: 1,
    pythonSpares: 0,
    pythonLayers: { importGuard: false, emptyJsGlobals: false, noCodeGeneration: false, permissionModel: false },
  });
  await Promise.all([runner.start(), noGuard.start(), processOnly.start()]);
}, 180_000);

afterAll(async () => {
  await Promise.all([runner?.stop(), noGuard?.stop(), processOnly?.stop()]);
  server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  delete process.env.CODELAB_TEST_SECRET;
});

describe('Python', () => {
  it('prints hello world', async () => {
    expect(await py('print("Hello, world!")')).toMatchObject({ status: 'ok', stdout: 'Hello, world!\n', stderr: '' });
  });

  it('reads stdin with input() and sys.stdin', async () => {
    const r = await py(
      'import sys\nname = input()\nrest = sys.stdin.read().split()\nprint("Hi", name, sum(map(int, rest)))',
      'Lan\n1 2\n3\n',
    );
    expect(r).toMatchObject({ status: 'ok', stdout: 'Hi Lan 6\n' });
  });

  it('reports a syntax error with its line', async () => {
    const r = await py('print("a")\ndef f(:\n  pass');
    expect(r.status).toBe('syntax_error');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('line 2');
    expect(r.stderr).toContain('SyntaxError');
  });

  it('reports a runtime error with the traceback of the program only, after the output so far', async () => {
    const r = await py('print("before")\nx = {}\nprint(x["missing"])');
    expect(r).toMatchObject({ status: 'runtime_error', stdout: 'before\n' });
    expect(r.stderr).toContain('KeyError');
    expect(r.stderr).toContain('File "main.py", line 3');
    expect(r.stderr).not.toContain('_codelab_run');
  });

  it('stops an infinite loop at the time limit, replaces the worker, and the next run is fine', async () => {
    const before = runner.stats().python.replaced;
    const r = await py('print("start", flush=True)\nwhile True:\n    pass');
    expect(r.status).toBe('time_limit_exceeded');
    expect(r.timeMs).toBeGreaterThanOrEqual(2000);
    expect(r.stdout).toBe('start\n');
    // The pool counts the replacement once the killed process has exited, which may come after the answer.
    await vi.waitFor(() => expect(runner.stats().python.replaced).toBeGreaterThan(before), { timeout: 5000 });
    expect(await py('print(6 * 7)')).toMatchObject({ status: 'ok', stdout: '42\n' });
  });

  it('stops a memory bomb at the memory limit', async () => {
    expect((await py('x = [0] * (10 ** 9)')).status).toBe('memory_limit_exceeded');
    const grow = await py('chunks = []\nwhile True:\n    chunks.append(bytearray(10 ** 6))');
    expect(grow.status).toBe('memory_limit_exceeded');
    expect(grow.stderr).toContain('MemoryError');
    // 48 MiB of the 64 allowed is fine.
    expect(await py('x = bytearray(48 * 2 ** 20)\nprint(len(x))')).toMatchObject({
      status: 'ok',
      stdout: `${48 * 2 ** 20}\n`,
    });
    expect(await py('print("still here")')).toMatchObject({ status: 'ok', stdout: 'still here\n' });
  });

  it('stops an output flood at 64 KiB and keeps the first 64 KiB', async () => {
    const r = await py('while True:\n    print("spam " * 20)');
    expect(r.status).toBe('output_limit_exceeded');
    expect(Buffer.byteLength(r.stdout)).toBe(64 * 1024);
    expect(r.stdout.startsWith('spam spam')).toBe(true);
  });

  it('turns deep recursion into a runtime error', async () => {
    const r = await py('def down(n):\n    return down(n + 1)\ndown(0)');
    expect(r.status).toBe('runtime_error');
    expect(r.stderr).toContain('RecursionError');
    // With the recursion limit lifted, Python frames fill the heap or the time: still a clean verdict.
    const lifted = await py('import sys\nsys.setrecursionlimit(10**6)\ndef down(n):\n    return down(n + 1)\ndown(0)');
    expect(['runtime_error', 'memory_limit_exceeded', 'time_limit_exceeded']).toContain(lifted.status);
    expect(await py('print("next")')).toMatchObject({ status: 'ok', stdout: 'next\n' });
  });

  it('exits quietly with sys.exit(0) and fails with sys.exit(3)', async () => {
    expect(await py('import sys\nprint("bye")\nsys.exit(0)')).toMatchObject({ status: 'ok', stdout: 'bye\n' });
    expect((await py('import sys\nsys.exit(3)')).status).toBe('runtime_error');
  });
});

describe('JavaScript', () => {
  it('prints hello world, and values the way Node does', async () => {
    expect(await js('console.log("Hello, world!")')).toMatchObject({
      status: 'ok',
      stdout: 'Hello, world!\n',
      stderr: '',
    });
    const r = await js('console.log([1, "a"], { x: 1, y: [true, null] }, 2n, undefined); console.error("oops")');
    expect(r).toMatchObject({
      status: 'ok',
      stdout: "[ 1, 'a' ] { x: 1, y: [ true, null ] } 2n undefined\n",
      stderr: 'oops\n',
    });
  });

  it('reads stdin with readLine(), input() and the stdin string', async () => {
    const r = await js(
      'const name = readLine(); const nums = readLine().split(" ").map(Number); console.log("Hi", name, nums[0] + nums[1], readLine(), stdin.length)',
      'Lan\n2 3\n',
    );
    expect(r).toMatchObject({ status: 'ok', stdout: 'Hi Lan 5 null 8\n' });
  });

  it('reports a syntax error', async () => {
    const r = await js('console.log("a");\nlet = = 2;');
    expect(r.status).toBe('syntax_error');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('SyntaxError');
  });

  it('reports a runtime error after the output so far', async () => {
    const r = await js('console.log("before"); null.name');
    expect(r).toMatchObject({ status: 'runtime_error', stdout: 'before\n' });
    expect(r.stderr).toContain('TypeError');
  });

  it('stops an infinite loop at the time limit, even one that catches errors, replaces the worker, and the next run is fine', async () => {
    const before = runner.stats().javascript.replaced;
    const r = await js('console.log("start"); for (;;) { try { while (true) {} } catch (e) {} }');
    expect(r.status).toBe('time_limit_exceeded');
    expect(r.timeMs).toBeGreaterThanOrEqual(2000);
    expect(r.stdout).toBe('start\n');
    expect(runner.stats().javascript.replaced).toBeGreaterThan(before);
    expect(await js('console.log(6 * 7)')).toMatchObject({ status: 'ok', stdout: '42\n' });
  });

  it('stops an endless chain of promises at a limit (the chain holds memory: whichever comes first), and still runs promise jobs', async () => {
    expect(['time_limit_exceeded', 'memory_limit_exceeded']).toContain(
      (await js('const spin = () => Promise.resolve().then(spin); spin();')).status,
    );
    expect((await js('const spin = () => Promise.resolve().then(() => { spin() }); spin();')).status).toBe(
      'time_limit_exceeded',
    );
    expect(await js('Promise.resolve(1).then((x) => console.log(x + 1))')).toMatchObject({
      status: 'ok',
      stdout: '2\n',
    });
  });

  it('stops a memory bomb at the memory limit', async () => {
    expect((await js('const parts = []; while (true) parts.push(new Uint8Array(1 << 22));')).status).toBe(
      'memory_limit_exceeded',
    );
    expect((await js('const s = "x".repeat(1 << 26)')).status).toBe('memory_limit_exceeded');
    expect((await js('new Array(1e8).fill(0)')).status).toBe('memory_limit_exceeded');
    expect(await js('console.log("still here")')).toMatchObject({ status: 'ok', stdout: 'still here\n' });
    // Typed arrays too: QuickJS's own limit does not count their bytes, the capped wasm memory does.
    expect((await js('const big = new Uint8Array(96 * 1024 * 1024); console.log(big.length)')).status).toBe(
      'memory_limit_exceeded',
    );
    expect(await js('const fits = new Uint8Array(40 * 1024 * 1024); console.log(fits.length)')).toMatchObject({
      status: 'ok',
      stdout: `${40 * 1024 * 1024}\n`,
    });
  });

  it('stops an output flood at 64 KiB and keeps the first 64 KiB', async () => {
    const r = await js('while (true) console.log("spam ".repeat(20))');
    expect(r.status).toBe('output_limit_exceeded');
    expect(Buffer.byteLength(r.stdout)).toBe(64 * 1024);
  });

  it('turns deep recursion into a runtime error with a short stack', async () => {
    const r = await js('function down(n) { return down(n + 1) + 1 } down(0)');
    expect(r.status).toBe('runtime_error');
    expect(r.stderr).toContain('stack overflow');
    expect(r.stderr.split('\n').length).toBeLessThan(15);
  });
});

describe('limits on what is sent', () => {
  it('refuses code over 64 KiB and an unknown language with validation_failed', async () => {
    const big = runner.runCode({ language: 'python', code: `# ${'x'.repeat(64 * 1024)}` });
    await expect(big).rejects.toBeInstanceOf(AppError);
    await expect(big).rejects.toMatchObject({ code: 'validation_failed', extra: { details: [{ field: 'code' }] } });
    await expect(runner.runCode({ language: 'ruby' as 'python', code: 'puts 1' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('honours a lower time limit for one run', async () => {
    const r = await runner.runCode({ language: 'javascript', code: 'while (true) {}', timeLimitMs: 300 });
    expect(r.status).toBe('time_limit_exceeded');
    expect(r.timeMs).toBeLessThan(1500);
  });
});

describe('Python cannot reach the host', () => {
  it('cannot import js, pyodide_js or pyodide.ffi', async () => {
    for (const code of [
      'import js',
      'from pyodide.ffi import to_js, create_proxy',
      'import pyodide_js',
      'import pyodide',
      'import _pyodide_core',
    ]) {
      const r = clean(await py(code));
      expect(r.status, code).toBe('runtime_error');
      expect(r.stderr, code).toMatch(/ImportError|ModuleNotFoundError/);
    }
  });

  it('finds no secret in os.environ and cannot read DATA_DIR (open() sees the interpreter file system)', async () => {
    const r = clean(
      await py(`import os
print(sorted(os.environ))
print(any("${SECRET.slice(0, 12)}" in v for v in os.environ.values()))
for path in ["${dataDir}/jwt-secret", "/etc/passwd"]:
    try:
        open(path).read()
        print("read", path)
    except OSError as e:
        print("refused", type(e).__name__)`),
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('False');
    expect(r.stdout).not.toContain(`read ${dataDir}`);
    expect(r.stdout).not.toContain('CODELAB_TEST_SECRET');
  });

  it('reaches no server on loopback with sockets or urllib', async () => {
    const before = hits;
    const r = clean(
      await py(`import socket, urllib.request
try:
    s = socket.create_connection(("127.0.0.1", ${port}), timeout=0.2)
    s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n")
    print("socket", s.recv(100))
except Exception as e:
    print("socket failed", type(e).__name__)
try:
    print("urllib", urllib.request.urlopen("http://127.0.0.1:${port}/", timeout=0.2).read())
except Exception as e:
    print("urllib failed", type(e).__name__)`),
    );
    expect(r.stdout).toContain('socket failed');
    expect(r.stdout).toContain('urllib failed');
    expect(r.stdout).not.toContain('reached');
    expect(hits).toBe(before);
  });

  it('cannot list objects through the garbage collector (where JavaScript proxies could be found)', async () => {
    const r = clean(
      await py(`import gc, sys
found = [o for o in gc.get_objects() if type(o).__name__.startswith("Js")]
print("proxies", len(found))
for o in found[:20]:
    try:
        p = o.constructor.constructor("return process")()
        print("process", p.pid)
    except BaseException as e:
        print("blocked", type(e).__name__)
print([m for m in sys.modules if sys.modules[m] is not None and ("pyodide" in m or m == "js")])`),
    );
    expect(r.status).toBe('runtime_error');
    expect(r.stderr).toContain('RuntimeError: not available in CodeLab: gc.get_objects');
    expect(r.stdout).not.toContain('process ');
  });

  it('the Function-constructor escape throws without the import guard, as code generation from strings is off', async () => {
    const r = clean(
      await noGuard.runCode({
        language: 'python',
        code: 'import pyodide_js\nprint(pyodide_js.constructor.constructor("return process")())',
      }),
    );
    expect(r.status).toBe('runtime_error');
    expect(r.stderr).toContain('EvalError');
  });

  it('reaching process through js.process finds no file and no child process (permission model)', async () => {
    const r = clean(
      await noGuard.runCode({
        language: 'python',
        code: `import js
p = js.process
print("env", js.JSON.stringify(p.env))
print("uid", p.getuid())
for name, attempt in [
    ("fs", lambda: p.getBuiltinModule("fs").readFileSync("${dataDir}/jwt-secret", "utf8")),
    ("passwd", lambda: p.getBuiltinModule("fs").readFileSync("/etc/passwd", "utf8")[:10]),
    ("write", lambda: p.getBuiltinModule("fs").writeFileSync("/tmp/x", "x")),
    ("child_process", lambda: p.getBuiltinModule("child_process").execSync("id").toString()),
]:
    try:
        print(name, "got", attempt())
    except Exception as e:
        print(name, "refused", "has been restricted" in str(e))`,
      }),
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('env {}');
    expect(r.stdout).toMatch(/fs refused True\npasswd refused True\nwrite refused True\nchild_process refused True/);
  });

  it('with every in-process layer off, the escape runs as nobody with an empty environment, no DATA_DIR and no network', async () => {
    const before = hits;
    const r = clean(
      await processOnly.runCode({
        language: 'python',
        code: `import pyodide_js, js
p = pyodide_js.constructor.constructor("return process")()
print("env", js.JSON.stringify(p.env))
print("uid", p.getuid(), "gid", p.getgid())
fs = p.getBuiltinModule("fs")
cp = p.getBuiltinModule("child_process")
try:
    print("secret", fs.readFileSync("${dataDir}/jwt-secret", "utf8"))
except Exception as e:
    print("secret refused", e.code)
text = js.JSON.parse('{"encoding": "utf8", "timeout": 3000}')
print("id", cp.execSync("id -u", text).strip())
try:
    print("cat", cp.execSync("cat ${dataDir}/jwt-secret 2>&1", text))
except Exception as e:
    print("cat refused")
probe = 'require("http").get("http://127.0.0.1:${port}/", r => { console.log("http", r.statusCode); process.exit(0) }).on("error", e => { console.log("http failed", e.code); process.exit(0) })'
out = cp.spawnSync(p.execPath, js.JSON.parse(js.JSON.stringify(["-e", probe])), text)
print(out.stdout.strip())
print("tmp", ",".join(list(fs.readdirSync("/tmp"))) or "empty")`,
      }),
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('env {}');
    expect(r.stdout).toContain('uid 65534 gid 65534');
    expect(r.stdout).toContain('secret refused EACCES');
    expect(r.stdout).toContain('id 65534');
    expect(r.stdout).toContain('cat refused');
    expect(r.stdout).toMatch(/http failed (ENETUNREACH|ECONNREFUSED|EADDRNOTAVAIL)/);
    // Empty but for the interpreter's own folder, bound read-only when the checkout lies under /tmp.
    const interpreter = pyodideDir();
    expect(r.stdout).toContain(`tmp ${interpreter.startsWith('/tmp/') ? interpreter.split('/')[2] : 'empty'}`);
    expect(hits).toBe(before);
  });

  it('closed DATA_DIR to other users when it started', () => {
    expect(statSync(dataDir).mode & 0o077).toBe(0);
  });

  it('a run that patches builtins and leaves files leaves nothing for the next run', async () => {
    const first = await py(`import builtins, sys, json
builtins.len = lambda x: -1
builtins.print = lambda *a, **k: sys.stdout.write("hijacked\\n")
json.dumps = lambda *a, **k: "hijacked"
sys.modules["math"] = None
open("/tmp/left-behind", "w").write("from the first user")
open("left-behind", "w").write("from the first user")
secret_of_first_user = "first-user-data"`);
    expect(first.status).toBe('ok');
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        py(`import json, math, os
print(len([1, 2]), json.dumps([1]), math.floor(2.5))
print(os.path.exists("/tmp/left-behind"), os.path.exists("left-behind"))
print("secret_of_first_user" in globals())`),
      ),
    );
    for (const r of results) expect(r).toMatchObject({ status: 'ok', stdout: '2 [1] 2\nFalse False\nFalse\n' });
  });
});

/**
 * What a program can find by walking from the interpreter's roots (modules, builtins, import hooks,
 * every class through __subclasses__, function globals, closures, bound selves): any JavaScript
 * proxy, any module of Pyodide's, any C function of _pyodide_core.
 */
const HUNT = `import sys, builtins
BAD = ("js", "pyodide_js", "_pyodide_core", "pyodide", "_pyodide")
found, seen, todo = [], set(), []
def push(o, path):
    if id(o) not in seen:
        seen.add(id(o))
        todo.append((o, path))
for root, name in [(sys.modules, "sys.modules"), (builtins, "builtins"), (sys.meta_path, "meta_path"), (sys.path_hooks, "path_hooks"), (sys.path_importer_cache, "importer_cache")]:
    push(root, name)
stack = [object]
while stack:
    c = stack.pop()
    push(c, "class " + c.__qualname__)
    try:
        stack.extend(type.__subclasses__(c))
    except Exception:
        pass
while todo:
    o, path = todo.pop()
    t = type(o)
    if any(k.__name__ == "JsProxy" for k in t.__mro__):
        found.append(path)
        continue
    if t is type(sys) and o.__name__.split(".")[0] in BAD:
        found.append(path)
    try:
        if t is dict:
            for k, v in list(o.items()):
                push(v, path + "[" + repr(k)[:40] + "]")
            continue
        if t in (list, tuple, set, frozenset):
            for i, v in enumerate(list(o)):
                push(v, path + "[" + str(i) + "]")
            continue
    except Exception:
        pass
    for a in ("__dict__", "__globals__", "__closure__", "__self__", "__wrapped__", "__func__", "cell_contents", "__defaults__", "__kwdefaults__"):
        try:
            v = getattr(o, a)
            if a == "__dict__" and type(v) is not dict:
                v = dict(v)
        except BaseException:
            continue
        push(v, path + "." + a)
print("visited", len(seen) > 10000, "found", found[:10])`;

describe('every run in a process of its own: one learner meets nothing of another', () => {
  const VICTIM = `SECRET-${Math.random().toString(36).slice(2)}`;
  const SEARCH = `import codecs, sys, encodings
found = []
try:
    found += [s for s in codecs.lookup("x-evil").stash if "SECRET" in s]
except LookupError:
    pass
try:
    found += [s for s in codecs.lookup("utf-8").stash if "SECRET" in s]
except (LookupError, AttributeError):
    pass
found += [s for s in getattr(sys.stdout, "stash", []) if "SECRET" in s]
print("left by an earlier run:", hasattr(sys, "codelab_mark"), found)
sys.codelab_mark = True
`;
  const ATTACKS: Record<string, string> = {
    // The probe's attack: every program's output through a codec of the attacker's.
    codec: `${SEARCH}
def encode(text, errors="strict"):
    info.stash.append(text)
    return text.replace("SECRET", "PWNED").encode("utf-8"), len(text)
def decode(data, errors="strict"):
    return bytes(data).decode("utf-8"), len(data)
class Encoder(codecs.IncrementalEncoder):
    def encode(self, text, final=False):
        return encode(text)[0]
info = codecs.CodecInfo(encode, decode, incrementalencoder=Encoder, name="x-evil")
info.stash = []
codecs.register(lambda name: info if name in ("x-evil", "x_evil") else None)
sys.stdout.reconfigure(encoding="x-evil")
print("SECRET-own")`,
    // The variant: in front of the standard search function, so UTF-8 itself (what stdin is decoded with) is the attacker's.
    stdin: `${SEARCH}
utf8 = codecs.lookup("utf-8")
def decode(data, errors="strict"):
    text, n = utf8.decode(data, errors)
    info.stash.append(text)
    return text, n
class Decoder(codecs.BufferedIncrementalDecoder):
    def _buffer_decode(self, data, errors, final):
        text, n = codecs.utf_8_decode(data, errors, final)
        info.stash.append(text)
        return text, n
info = codecs.CodecInfo(utf8.encode, decode, incrementalencoder=utf8.incrementalencoder, incrementaldecoder=Decoder, name="utf-8")
info.stash = []
codecs.unregister(encodings.search_function)
codecs.register(lambda name: info if name.replace("-", "_") in ("utf_8", "utf8") else None)
codecs.register(encodings.search_function)
import io
io.TextIOWrapper(io.BytesIO(b"SECRET-own\\n"), encoding="utf-8").read()
print("captured", [s for s in info.stash if "SECRET" in s])`,
    // The stream itself replaced, where the next program's print() would write.
    stdout: `${SEARCH}
class Tee:
    stash = []
    def write(self, s):
        Tee.stash.append(s)
        return real.write(s.replace("SECRET", "PWNED"))
    def flush(self):
        real.flush()
real = sys.stdout
sys.stdout = sys.__stdout__ = Tee()
print("SECRET-own")`,
  };

  it('the codec, stdin and stdout attacks, sent to processes at once, see no later run and change none', async () => {
    const spawnedBefore = runner.stats().python.spawned;
    for (const [name, code] of Object.entries(ATTACKS)) {
      // Each attack works in its own run: the attacker's own SECRET comes out changed.
      const own = name === 'stdin' ? "captured ['SECRET-own\\n']\n" : 'PWNED-own\n';
      // As many at once as there are workers: every process of the pool meets the attack.
      const attacks = await Promise.all(Array.from({ length: 2 }, () => py(code)));
      for (const a of attacks)
        expect(a, name).toMatchObject({ status: 'ok', stdout: `left by an earlier run: False []\n${own}` });
      const victim = await py(
        `line = input()\nmy_password = "${VICTIM}"\nprint(my_password, line)`,
        `${VICTIM}-stdin\n`,
      );
      expect(victim, name).toMatchObject({ status: 'ok', stdout: `${VICTIM} ${VICTIM}-stdin\n` });
      const again = await Promise.all(Array.from({ length: 2 }, () => py(code)));
      for (const a of again) {
        expect(a, name).toMatchObject({ status: 'ok', stdout: `left by an earlier run: False []\n${own}` });
        expect(a.stdout + a.stderr).not.toContain(VICTIM);
      }
    }
    // 15 runs, 15 processes that had run nothing before, each killed after its run.
    const s = runner.stats().python;
    expect(s.spawned - spawnedBefore).toBeGreaterThanOrEqual(15);
    expect(s.spawned).toBe(s.runs + s.workers);
    expect(s.replaced).toBe(s.runs);
  }, 600_000);

  it("a heap scan finds no earlier run's secret: no way leads to the wasm heap", async () => {
    const victim = await py(`my_password = "VICTIM_${VICTIM}"\nprint(len(my_password))`);
    expect(victim.status).toBe('ok');
    const r = await py(`import sys
heaps = []
for i, finder in enumerate(sys.meta_path):
    try:
        heaps.append(finder.jsproxies["pyodide_js"]._module.HEAPU8)
    except BaseException as e:
        print("meta_path", i, type(e).__name__)
for name in ("pyodide_js", "_pyodide_core", "js"):
    try:
        heaps.append(sys.modules[name]._module.HEAPU8)
    except BaseException as e:
        print(name, type(e).__name__)
found = False
for heap in heaps:
    data = bytes(heap.to_py())
    found = found or b"VICTIM_${VICTIM}" in data
print("heaps", len(heaps), "found", found)`);
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('heaps 0 found False');
    expect(r.stdout + r.stderr).not.toContain(`VICTIM_${VICTIM}`);
  });

  it("every way to Pyodide's JavaScript side raises: jsproxies of the import hooks, pyodide_js, _pyodide_core, __main__", async () => {
    const paths = [
      'next(f for f in sys.meta_path if hasattr(f, "jsproxies")).jsproxies["pyodide_js"]',
      '[f.jsproxies["js"] for f in sys.meta_path if hasattr(f, "jsproxies")][0]',
      'sys.meta_path[4].jsproxies["pyodide_js"]._module.HEAPU8',
      'sys.modules["pyodide_js"].setStdout',
      'sys.modules["js"]',
      'sys.modules["_pyodide_core"]',
      'sys.modules["__main__"]._pyodide_core',
      'sys.modules["pyodide.ffi"].create_proxy',
      '__import__("_pyodide_core")',
      '__import__("pyodide_js").FS_createDataFile',
      '__import__("pyodide_js").mountNodeFS',
      '__import__("pyodide_js")._api.useNodeSockFS',
      'next(c for c in classes if c.__name__ == "JsFinder").find_spec.__globals__["jsfinder"].jsproxies["pyodide_js"]',
      'next(c for c in classes if c.__name__ == "_JsProxyMetaClass").__subclasscheck__.__globals__["jsnull"]',
      'next(c for c in classes if c.__name__ == "Py2JsConverterMeta").__new__.__wrapped__.__globals__["create_promise_converter"].__self__',
    ];
    const r = await py(`import sys
classes, stack = [], [object]
while stack:
    c = stack.pop()
    classes.append(c)
    stack.extend(type.__subclasses__(c))
for path in ${JSON.stringify(paths)}:
    try:
        value = eval(path)
        # None: the name is blocked in sys.modules, which is not a way anywhere.
        print("raised None" if value is None else "reached " + path + " " + type(value).__name__)
    except BaseException as e:
        print("raised", type(e).__name__)`);
    expect(r.status).toBe('ok');
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(paths.length);
    for (const line of lines)
      expect(line).toMatch(
        /^raised (None|KeyError|AttributeError|ImportError|ModuleNotFoundError|StopIteration|IndexError|TypeError)$/,
      );
    // No path left that the list above does not name either.
    const hunt = await py(HUNT);
    expect(hunt).toMatchObject({ status: 'ok', stdout: 'visited True found []\n' });
  });

  it('shows no host path: not in os.environ, sys.argv, sys.orig_argv or sys.executable', async () => {
    const r = await py(
      'import os, sys, json\nprint(json.dumps([dict(os.environ), sys.argv, sys.orig_argv, sys.executable, sys.path]))',
    );
    expect(r.status).toBe('ok');
    const [environ] = JSON.parse(r.stdout) as [Record<string, string>];
    expect(Object.keys(environ).sort()).toEqual(['HOME', 'LANG', 'LOGNAME', 'PATH', 'PWD', 'USER']);
    for (const hostPath of [pyodideDir(), process.cwd(), 'node_modules', process.execPath, 'indexURL'])
      expect(r.stdout).not.toContain(hostPath);
  });

  it("refuses the ways to the interpreter's internals", async () => {
    const result = clean(
      await py(`import sys, gc
def attempt(name, f):
    try:
        f()
        print(name, "allowed")
    except BaseException as e:
        print(name, "refused", type(e).__name__)
def traceback_frame():
    try:
        1 / 0
    except ZeroDivisionError as e:
        return e.__traceback__.tb_frame
attempt("gc", gc.get_objects)
attempt("referrers", lambda: gc.get_referrers(sys))
attempt("frame", sys._getframe)
attempt("traceback frame", traceback_frame)
attempt("generator frame", lambda: (x for x in []).gi_frame)
attempt("settrace", lambda: sys.settrace(lambda *a: None))
attempt("audit hook", lambda: (sys.addaudithook(lambda *a: print("HOOKED")), sys.audit("codelab.test")))
attempt("ctypes", lambda: __import__("ctypes"))`),
    );
    expect(result.status).toBe('ok');
    expect(result.stdout.trim().split('\n')).toEqual([
      'gc refused RuntimeError',
      'referrers refused RuntimeError',
      'frame refused RuntimeError',
      'traceback frame refused RuntimeError',
      'generator frame refused RuntimeError',
      'settrace refused RuntimeError',
      // Python drops a hook that the existing hooks refuse, without an error: it never runs.
      'audit hook allowed',
      'ctypes refused ImportError',
    ]);
  });

  it("shows a runtime error of the program's own exception class, whose message cannot reach the internals either", async () => {
    const r = clean(
      await py(
        'class Oops(Exception):\n    def __str__(self):\n        import gc\n        return str(len(gc.get_objects()))\nraise Oops("x")',
      ),
    );
    expect(r.status).toBe('runtime_error');
    expect(r.stderr).toContain('File "main.py", line 5');
    expect(r.stderr.trim().split('\n').at(-1)).toBe('Oops');
    const plain = clean(await py('class Oops(Exception):\n    pass\nraise Oops("it went wrong")'));
    expect(plain.stderr.trim().split('\n').at(-1)).toBe('Oops: it went wrong');
  });

  it('time.sleep still works after Pyodide is cut off', async () => {
    expect(await py('import time\nt = time.time()\ntime.sleep(0.05)\nprint(time.time() - t >= 0.04)')).toMatchObject({
      status: 'ok',
      stdout: 'True\n',
    });
  });
});

describe('JavaScript cannot reach the host', () => {
  it('sees no process, require, fetch, module loader or host global', async () => {
    const r = clean(
      await js(`console.log(typeof process, typeof require, typeof fetch, typeof globalThis.process, typeof module, typeof std, typeof os, typeof XMLHttpRequest, typeof WebAssembly);
console.log(Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)).sort().join(","));`),
    );
    expect(r.status).toBe('ok');
    const [types, globals] = r.stdout.trim().split('\n');
    expect(types).toBe(Array(9).fill('undefined').join(' '));
    expect(globals).not.toMatch(/process|require|write|host/);
  });

  it('finds no host through the Function constructor of any object, and import() fails', async () => {
    const r = clean(
      await js(`const probes = [
  () => (function () {}).constructor("return typeof process")(),
  () => console.log.constructor("return typeof require")(),
  () => readLine.constructor.constructor("return Object.keys(this).includes('process')")(),
  () => [].constructor.constructor("return typeof globalThis.process")(),
  () => Object.getPrototypeOf(async function () {}).constructor("return 1")() instanceof Promise,
];
for (const p of probes) { try { console.log(String(p())) } catch (e) { console.log("threw", e.name) } }
import("fs").then(() => console.log("imported"), (e) => console.log("import failed", e.name));`),
    );
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('undefined\nundefined\nfalse\nundefined\ntrue\nimport failed ReferenceError\n');
  });

  it('cannot use a static import or read the process environment', async () => {
    expect((await js('import fs from "fs"; console.log(fs)')).status).toBe('syntax_error');
    const r = clean(await js('try { console.log(process.env) } catch (e) { console.log(e.name) }'));
    expect(r.stdout).toBe('ReferenceError\n');
  });

  it('prototype tricks and patched builtins stay in their own run', async () => {
    const first = await js(`Object.prototype.polluted = "yes";
Array.prototype.push = function () { return "hijacked" };
globalThis.leftBehind = "first-user-data";
console.log = () => {};
JSON.stringify = () => "hijacked";
Object.defineProperty(Object.prototype, "constructor", { get() { return "trap" } });`);
    expect(first.status).toBe('ok');
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        js(
          'const a = []; a.push(1); console.log(({}).polluted, a.length, typeof leftBehind, JSON.stringify([1]), typeof ({}).constructor)',
        ),
      ),
    );
    for (const r of results) expect(r).toMatchObject({ status: 'ok', stdout: 'undefined 1 undefined [1] function\n' });
  });
});

describe('load', () => {
  it('answers 16 concurrent runs with 2 workers per language, never more than 2 at once', async () => {
    let maxBusy = 0;
    const sample = setInterval(() => {
      const s = runner.stats();
      maxBusy = Math.max(maxBusy, s.python.busy, s.javascript.busy);
    }, 5);
    const runs = Array.from({ length: 16 }, (_, i) => (i % 2 ? js(`console.log(${i} * 2)`) : py(`print(${i} * 2)`)));
    const results = await Promise.all(runs);
    clearInterval(sample);
    results.forEach((r, i) => expect(r, `run ${i}`).toMatchObject({ status: 'ok', stdout: `${i * 2}\n` }));
    expect(maxBusy).toBeLessThanOrEqual(2);
  }, 180_000);
});
