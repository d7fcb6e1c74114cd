/**
 * The Python half of a warm Python worker (python-worker.source.ts runs it): `_codelab_setup`
 * imports the preloaded modules, takes stock of the interpreter (every module's namespace, the
 * containers and objects they hold, the classes and functions that exist), installs the audit hook
 * that refuses programs the interpreter's internals, and returns `run(code, stdin)` and `reset()`.
 * Everything they use is bound at setup, so a program that replaces builtins or module attributes
 * does not change what the driver calls. It lives in a namespace of its own, never in __main__.
 */
export const pythonDriverSource = String.raw`
import sys, io, gc, os, builtins, operator, traceback

def _codelab_setup(blocked, scratch, preload):
    for _name in preload:
        try:
            __import__(_name)
        except BaseException:
            pass
    # Everything the driver uses is bound here, before any program runs: a program may replace
    # names in builtins or in modules, never these references.
    is_, all_, map_, len_, id_, type_, isinstance_, getattr_, vars_ = operator.is_, all, map, len, id, type, isinstance, getattr, vars
    dict_, list_, set_, tuple_, frozenset_, str_, int_, float_, bool_, bytes_, bytearray_ = dict, list, set, tuple, frozenset, str, int, float, bool, bytes, bytearray
    BaseException_, SystemExit_, MemoryError_, SyntaxError_, ValueError_, RuntimeError_ = BaseException, SystemExit, MemoryError, SyntaxError, ValueError, RuntimeError
    compile_, exec_, print_ = compile, exec, print
    ModuleType, FunctionType = type_(sys), type_(_codelab_setup)
    TextIOWrapper, BytesIO = io.TextIOWrapper, io.BytesIO
    print_exception = traceback.print_exception
    type_name = type.__dict__['__name__'].__get__
    tb_of = BaseException.__dict__['__traceback__'].__get__
    sys_ = sys
    environ = os.environ
    base_env = dict_(environ)
    base_recursion = sys.getrecursionlimit()
    base_digits = sys.get_int_max_str_digits()
    base_threshold = gc.get_threshold()
    gc_collect, gc_enable, gc_set_threshold = gc.collect, gc.enable, gc.set_threshold
    setrecursionlimit, set_digits = sys.setrecursionlimit, sys.set_int_max_str_digits
    random = sys.modules.get('random')
    reseed = random.seed if random is not None else None
    # State kept in C, out of the namespaces: decimal's contexts, the locale, the umask, atexit.
    decimal = sys.modules.get('decimal')
    contexts = []
    if decimal is not None:
        for ctx in (decimal.DefaultContext, decimal.BasicContext, decimal.ExtendedContext):
            contexts.append((ctx, ctx.copy()))
        setcontext, Context = decimal.setcontext, decimal.Context
    locale = sys.modules.get('locale')
    base_locale = locale.setlocale(locale.LC_ALL) if locale is not None else None
    base_umask = os.umask(0o022)
    os.umask(base_umask)
    umask = os.umask
    atexit_clear = sys.modules['atexit']._clear if 'atexit' in sys.modules else None
    HEAPTYPE = 1 << 9
    flags_of = type.__dict__['__flags__'].__get__
    setattr_, delattr_ = type.__setattr__, type.__delattr__
    base_std = (sys.stdin, sys.stdout, sys.stderr)
    PRIMITIVE = frozenset_((str_, int_, float_, bool_, bytes_, type_(None)))

    # What a program could change and the next run would see: every module's namespace, the
    # lists, dicts and sets they hold, and the attributes of the objects they hold (one level
    # down, and the containers of those).
    modules_dict = sys.modules
    base_modules = dict_(modules_dict)
    module_dicts = [(vars_(m), dict_(vars_(m))) for m in base_modules.values() if type_(m) is ModuleType]
    containers = []
    instances = []
    seen = set_()

    def take(value, depth):
        i = id_(value)
        if i in seen:
            return
        seen.add(i)
        t = type_(value)
        if t is list_ or t is set_ or t is bytearray_:
            containers.append((value, t(value)))
        elif t is dict_:
            containers.append((value, dict_(value)))
        elif t is ModuleType or t is FunctionType or isinstance_(value, type):
            return
        else:
            try:
                d = object.__getattribute__(value, '__dict__')
            except BaseException_:
                return
            if type_(d) is dict_:
                instances.append((value, t, d, dict_(d)))
                if depth == 0:
                    for v in list_(d.values()):
                        take(v, 1)

    for _d, snapshot in module_dicts:
        for v in list_(snapshot.values()):
            take(v, 0)
    # Every object that exists now: none may change class, no function its code (the audit hook
    # refuses it). Classes defined in Python may be changed; they are put back after the run.
    everything = gc.get_objects()
    base_ids = frozenset_([id_(o) for o in everything] + [id_(entry[0]) for entry in instances])
    classes = [(o, dict_(vars_(o))) for o in everything if isinstance_(o, type) and flags_of(o) & HEAPTYPE]
    lru_caches = [o for o in everything if type_(o).__name__ == '_lru_cache_wrapper']
    del everything
    FRAMES = frozenset_(('tb_frame', 'gi_frame', 'cr_frame', 'ag_frame', 'f_back', 'f_locals', 'f_globals', 'f_builtins'))

    # Ways from a program to the interpreter's internals (frames hold the driver's variables;
    # the garbage collector lists every object), refused to programs.
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
        elif event == 'object.__setattr__' or event == 'object.__delattr__':
            if id_(args[0]) in base_ids:
                raise RuntimeError_('CodeLab: built-in classes, functions and modules\' objects cannot be changed')
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

    def same(d, snapshot):
        return len_(d) == len_(snapshot) and all_(map_(is_, d.keys(), snapshot.keys())) and all_(map_(is_, d.values(), snapshot.values()))

    def restore():
        environ.clear()
        environ.update(base_env)
        for container, snapshot in containers:
            t = type_(container)
            if t is dict_:
                container.clear()
                container.update(snapshot)
            elif t is list_ or t is bytearray_:
                container[:] = snapshot
            else:
                container.clear()
                container.update(snapshot)
        # Comparing by identity costs less than rebuilding, and most namespaces are untouched.
        for d, snapshot in module_dicts:
            if not same(d, snapshot):
                d.clear()
                d.update(snapshot)
        for obj, t, d, snapshot in instances:
            if not same(d, snapshot):
                d.clear()
                d.update(snapshot)
        for cls, snapshot in classes:
            now = vars_(cls)
            if same(now, snapshot):
                continue
            for name in list_(now):
                if name not in snapshot:
                    delattr_(cls, name)
            for name, value in snapshot.items():
                if now.get(name, snapshot) is not value:
                    try:
                        setattr_(cls, name, value)
                    except BaseException_:
                        pass

    def reset():
        """Puts back what the program changed; False when something cannot be put back (then the process goes)."""
        clean = True
        before = frozenset_(modules_dict)
        restore()
        # The program's objects go now (the interpreter's own are frozen out of collections, so only
        # the run's are looked at); finalizers may change things again: restore once more, and the
        # check below finds whatever changed after that in namespaces, containers and objects
        # (classes are put back last in restore(), after the finalizers the other steps set off).
        if gc_collect():
            restore()
            if gc_collect():
                clean = False
        # A module imported for the first time may keep state outside its namespace (extension modules do).
        if not before <= frozenset_(base_modules):
            clean = False
        for d, snapshot in module_dicts:
            if not same(d, snapshot):
                clean = False
        for container, snapshot in containers:
            if type_(container) is dict_ and not same(container, snapshot):
                clean = False
        for obj, t, d, snapshot in instances:
            if type_(obj) is not t or not same(d, snapshot):
                clean = False
        for cache in lru_caches:
            cache.cache_clear()
        for ctx, snapshot in contexts:
            ctx.prec, ctx.rounding, ctx.Emin, ctx.Emax, ctx.capitals, ctx.clamp = snapshot.prec, snapshot.rounding, snapshot.Emin, snapshot.Emax, snapshot.capitals, snapshot.clamp
            ctx.clear_flags()
            for signal, on in snapshot.traps.items():
                ctx.traps[signal] = on
        if contexts:
            setcontext(Context())
        if base_locale is not None:
            locale.setlocale(locale.LC_ALL, base_locale)
        umask(base_umask)
        if atexit_clear is not None:
            atexit_clear()
        sys_.stdin, sys_.stdout, sys_.stderr = base_std
        setrecursionlimit(base_recursion)
        set_digits(base_digits)
        gc_enable()
        gc_set_threshold(*base_threshold)
        if reseed is not None:
            reseed()
        gc_freeze()
        return clean

    gc_freeze = gc.freeze
    gc_freeze()
    return run, reset
`;
