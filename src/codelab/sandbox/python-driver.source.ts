/**
 * The Python half of a Python worker (python-worker.source.ts runs it): `_codelab_setup` imports
 * the preloaded modules, cuts the interpreter off from Pyodide's JavaScript side, installs the
 * audit hook that refuses programs the interpreter's internals, and returns `run(code, stdin)`.
 * Everything `run` uses is bound at setup, so a program that replaces builtins or module attributes
 * does not change what the driver calls. It lives in a namespace of its own, never in __main__.
 *
 * The process serves one person's one piece of code (a run, or the tests of one submission) and
 * is then killed. Each program gets a fresh namespace and the standard streams back; what else it
 * changes (codecs, modules, the heap) is seen only by the later tests of the same submission, and
 * dies with the process.
 */
export const pythonDriverSource = String.raw`
import sys, io, os, builtins, traceback, warnings, gc

# The environment a program sees: Pyodide's virtual defaults, nothing of the host's.
ENVIRONMENT = ('HOME', 'PATH', 'PWD', 'LANG', 'USER', 'LOGNAME')
MAIN_NAMES = ('__name__', '__doc__', '__package__', '__loader__', '__spec__', '__builtins__')


def _codelab_cut_off(blocked):
    """
    Takes away every reference Python holds to Pyodide's JavaScript side: the modules js,
    pyodide_js, _pyodide_core and Pyodide's own Python modules (whose functions reach them through
    their globals), the import hook's jsproxies (pyodide_js._module is the raw wasm heap), what
    Pyodide left in __main__, and what it patched into the standard library. The JavaScript side
    keeps its own handles and needs none of these to call run().
    """
    ModuleType = type(sys)
    theirs = lambda name: name.split('.')[0] in blocked
    modules = [m for name, m in list(sys.modules.items()) if theirs(name) and type(m) is ModuleType]
    webloop = sys.modules.get('pyodide.webloop')
    if webloop is not None:
        import time, asyncio
        time.sleep = vars(webloop).get('_orig_sleep', time.sleep)
        asyncio.run = vars(webloop).get('_orig_run', asyncio.run)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            asyncio.set_event_loop_policy(None)
    # Pyodide's import hooks go: their code lives in the modules emptied below (the standard
    # library's finders remain), and the JsFinder's jsproxies hold pyodide_js itself.
    for hooks in (sys.meta_path, sys.path_hooks):
        for finder in list(hooks):
            proxies = getattr(finder, 'jsproxies', None)
            if type(proxies) is dict:
                proxies.clear()
            module = getattr(finder, '__module__', None)
            if proxies is not None or (type(module) is str and theirs(module)):
                hooks.remove(finder)
    sys.path_importer_cache.clear()
    # None in sys.modules: importing the name again fails instead of loading a fresh copy.
    for name in list(sys.modules):
        if theirs(name):
            sys.modules[name] = None
    # Emptied, not only forgotten: their classes and functions stay reachable through
    # object.__subclasses__(), and with them these namespaces.
    for m in modules:
        vars(m).clear()
    main = vars(sys.modules['__main__'])
    for name in list(main):
        if name not in MAIN_NAMES:
            del main[name]

    class Blocked:
        def find_spec(self, name, path=None, target=None):
            if name.split('.')[0] in blocked:
                raise ImportError('module ' + repr(name) + ' is not available in CodeLab')
            return None

    sys.meta_path.insert(0, Blocked())


def _codelab_setup(blocked, preload):
    for _name in preload:
        try:
            __import__(_name)
        except BaseException:
            pass
    if blocked:
        _codelab_cut_off(frozenset(blocked))
    for name in list(os.environ):
        if name not in ENVIRONMENT:
            del os.environ[name]
    # Everything the driver uses is bound here, before the program runs: a program may replace
    # names in builtins or in modules, never these references.
    len_, type_, str_, int_, float_, bool_, bytes_ = len, type, str, int, float, bool, bytes
    frozenset_ = frozenset
    BaseException_, SystemExit_, MemoryError_, SyntaxError_, ValueError_, RuntimeError_ = BaseException, SystemExit, MemoryError, SyntaxError, ValueError, RuntimeError
    compile_, exec_ = compile, exec
    TextIOWrapper, BytesIO = io.TextIOWrapper, io.BytesIO
    print_exception = traceback.print_exception
    collect = gc.collect
    ran = [False]
    type_name = type.__dict__['__name__'].__get__
    tb_of = BaseException.__dict__['__traceback__'].__get__
    sys_ = sys
    # What an earlier test of the same submission may have changed, put back before each program.
    stdout_, stderr_, recursion_limit = sys.stdout, sys.stderr, sys.getrecursionlimit()
    PRIMITIVE = frozenset_((str_, int_, float_, bool_, bytes_, type_(None)))
    FRAMES = frozenset_(('tb_frame', 'gi_frame', 'cr_frame', 'ag_frame', 'f_back', 'f_locals', 'f_globals', 'f_builtins'))

    # Ways from a program to the interpreter's internals (frames hold the driver's variables;
    # the garbage collector lists every object, JavaScript proxies included), refused to programs.
    REFUSED = frozenset_((
        'gc.get_objects', 'gc.get_referrers', 'gc.get_referents', 'sys._getframe', 'sys._current_frames',
        'sys._current_exceptions', 'sys.settrace', 'sys.setprofile', 'sys.addaudithook', 'sys.set_asyncgen_hooks_firstiter',
        'sys.set_asyncgen_hooks_finalizer', 'sys.monitoring.register_callback', 'sys.remote_exec', 'cpython.remote_debugger_script',
        'ctypes.dlopen', 'ctypes.dlsym', 'ctypes.cdata', 'ctypes.addressof', 'ctypes.string_at', 'ctypes.wstring_at',
        'ctypes.call_function', 'ctypes.create_string_buffer', 'ctypes.create_unicode_buffer', 'ctypes.set_errno', 'ctypes.get_errno',
    ))
    allow = [False]

    def hook(event, args):
        if event in REFUSED:
            raise RuntimeError_('not available in CodeLab: ' + event)
        if event == 'object.__getattr__':
            if not allow[0] and args[1] in FRAMES:
                raise RuntimeError_('not available in CodeLab: frames')
        elif event == 'import':
            name = args[0]
            if type_(name) is not str_ or name.split('.')[0] in blocked:
                raise ImportError('module ' + repr(name) + ' is not available in CodeLab')

    sys.addaudithook(hook)

    def header(e):
        # The program's own __str__ may run here: the audit hook still refuses it every way in.
        try:
            text = str_(e)
        except BaseException_:
            text = None
        return type_name(type_(e)) + (': ' + text if type_(text) is str_ and text else '') + '\n'

    def report(e, code):
        """A traceback of the program's frames; only the walk over them is let through the audit hook, and it runs none of the program's code."""
        lines = code.splitlines()
        entries = []
        tb = tb_of(e)
        tb = tb.tb_next if tb is not None else None
        allow[0] = True
        try:
            while tb is not None and len_(entries) < 2000:
                co = tb.tb_frame.f_code
                entries.append((co.co_filename, tb.tb_lineno, co.co_name))
                tb = tb.tb_next
        finally:
            allow[0] = False
        out = ['Traceback (most recent call last):\n']
        shown = entries if len_(entries) <= 12 else entries[:6] + [None] + entries[-5:]
        for entry in shown:
            if entry is None:
                out.append('  [... ' + str_(len_(entries) - 11) + ' more lines ...]\n')
                continue
            filename, lineno, name = entry
            out.append('  File "' + filename + '", line ' + str_(lineno) + ', in ' + name + '\n')
            if filename == 'main.py' and lineno is not None and 0 < lineno <= len_(lines):
                out.append('    ' + lines[lineno - 1].strip() + '\n')
        out.append(header(e))
        sys_.stderr.write(''.join(out))

    def run(code, stdin_text):
        # An earlier program's namespace is a cycle (its functions hold it) that only a full
        # collection frees: left alone, its memory counted against this program's limit.
        if ran[0]:
            collect()
        ran[0] = True
        sys_.stdout, sys_.stderr = stdout_, stderr_
        sys_.setrecursionlimit(recursion_limit)
        sys_.stdin = TextIOWrapper(BytesIO(stdin_text.encode('utf-8', 'replace')), encoding='utf-8')
        status = 'ok'
        try:
            compiled = compile_(code, 'main.py', 'exec', dont_inherit=True)
        except (SyntaxError_, ValueError_) as e:
            print_exception(type_(e), e, None, file=sys_.stderr)
            return 'syntax_error'
        try:
            exec_(compiled, {'__name__': '__main__', '__builtins__': builtins})
        except SystemExit_ as e:
            if e.code is not None and e.code != 0 if type_(e.code) in PRIMITIVE else True:
                status = 'runtime_error'
                if type_(e.code) is str_:
                    sys_.stderr.write(e.code + '\n')
        except MemoryError_:
            status = 'memory_limit_exceeded'
            sys_.stderr.write('MemoryError: the program used more memory than allowed\n')
        except BaseException_ as e:
            status = 'runtime_error'
            report(e, code)
        for stream in (sys_.stdout, sys_.stderr):
            try:
                stream.flush()
            except BaseException_:
                pass
        return status

    # What exists now is the interpreter's own and stays: kept out of every collection, the full
    # one before each later program looks only at what programs made (20 ms a test otherwise).
    gc.freeze()
    return run
`;
