"""cgtb: retrograde tablebases of combinatorial games, from Python.

Open a tablebase built by ``cgtb build`` (or by :func:`build`) and query it::

    import cgtb
    with cgtb.open("cram-4x5.cgtb") as tb:
        tb.query("...../...../...../.....")      # the dict `cgtb query --json` prints
        tb.options("...../...../...../.....")    # every move, the position it leads to, its values
        tb.query_many(["...../...../...../....."] * 3)["grundy"]   # NumPy int64 arrays
        tb.level(10)                              # a whole level as NumPy arrays

Errors raise :class:`InputError` (bad positions, options, levels),
:class:`CorruptFileError` (a subclass of InputError: a file that is not a sound
tablebase) and :class:`ResourceError` (a memory or field limit), each carrying
the command-line tool's one-line message. docs/python.md has a worked session.
"""

try:
    from . import _cgtb
except ImportError as e:  # the extension is missing or does not load: say so, not "circular import"
    raise ImportError(
        "cgtb's extension _cgtb is not built or does not load (configure with -DCGTB_PYTHON=ON, "
        "then cmake --build build --target _cgtb): " + str(e)
    ) from None
from ._cgtb import CorruptFileError, InputError, ResourceError, SumSolver, Tablebase, games, octal_quotient

__all__ = [
    "CorruptFileError",
    "InputError",
    "ResourceError",
    "SumSolver",
    "Tablebase",
    "build",
    "encode_cells",
    "games",
    "octal_quotient",
    "open",
    "sum",
]

__version__ = _cgtb.builder_version.split()[-1]
#: The .cgtb format version this module writes (it also reads older ones).
format_version = _cgtb.format_version


def open(path, cache_mb=1024):  # noqa: A001 - the module's verb, as in cgtb.open(path)
    """Open the tablebase at ``path`` for reading; returns a :class:`Tablebase`.

    ``cache_mb`` bounds the decompressed-block cache in MB (as ``cgtb query
    --cache-mb``). Opening checks the file's magic, version, header and index
    checksums; each block's checksum is checked when it is first read.

    Raises :class:`InputError` when the file cannot be opened (missing, not a
    regular file) or names an unknown game, and :class:`CorruptFileError` when it
    opens but is not a sound tablebase (bad magic, checksum mismatch, truncated,
    unsupported version).
    """
    return Tablebase(str(path), int(cache_mb))


def _option_args(params):
    args = []
    for key, value in params.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(str(v) for v in value)]
        else:
            args += [flag, str(value)]
    return args


def build(game, output=None, values="all", progress=False, advance=None, force=False, **params):
    """Build a tablebase, as ``cgtb build GAME ...`` does; returns the file's path.

    ``game`` is a name of :func:`games` (e.g. ``"cram"``); ``output`` the file to
    write (default ``GAME-PARAMS.cgtb`` in the current folder, as the CLI names
    it); ``values`` the value kinds (``"all"``, or e.g. ``"normal,misere"``);
    ``force``: replace a file already at ``output`` (else :class:`InputError`
    says what the file is, as ``cgtb build`` without ``--force`` does).
    Every other keyword is a ``cgtb build`` option, underscores for dashes:
    ``board="4x5"`` is ``--board 4x5``, ``max_total=40`` is ``--max-total 40``,
    ``subtract=[4, 5]`` is ``--subtract 4,5``, ``stats=True`` is ``--stats``
    (False and None leave an option out). The build options are those of the CLI
    too: ``backend``, ``threads`` (sets OpenMP's thread count for the process),
    ``max_memory``, ``resume``, ``block_entries``, ``zstd_level``.

    ``progress``: False (silent), True (the CLI's progress lines on stderr), a
    callable that receives each progress line (a str, without its line end) as
    the build runs, or ``"bar"``: a tqdm progress bar of the positions solved
    where the ``tqdm`` package is installed (else the lines on stderr, as True).
    ``advance``: None, or a callable given ``(done, total)`` positions after
    each level (``total`` is 0 until known: a reachable table's count is known
    after its forward pass). Progress comes from the solver as calls, never
    through file descriptor 2. An exception a callable raises stops further
    calls and is raised when the build ends.

    The build runs with the GIL released (other Python threads go on) and cannot
    be interrupted with Ctrl-C. Raises :class:`InputError` for an unknown game or
    option or a bad value (the CLI's message) and :class:`ResourceError` for a
    build that does not fit the memory allowed.
    """
    args = [str(game)] + _option_args(params) + ["--values", str(values)]
    if output is not None:
        args += ["--output", str(output)]
    if force:
        args.append("--force")
    if isinstance(progress, str) and progress == "bar":
        return _build_with_bar(args, advance)
    return _cgtb._build(args, progress, advance)


def _build_with_bar(args, advance):
    """A build with a tqdm bar of the positions solved (lines on stderr where
    tqdm is not installed)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return _cgtb._build(args, True, advance)
    with tqdm(unit=" positions", unit_scale=True, desc="cgtb build " + args[0]) as bar:

        def step(done, total):
            if total and bar.total != total:
                bar.total = total
            bar.update(done - bar.n)
            if advance is not None:
                advance(done, total)

        return _cgtb._build(args, bar.write, step)


def encode_cells(text):
    """The code of a Cram or Domineering position for :meth:`Tablebase.query_many`.

    ``text`` is written row by row, rows separated by ``/``, ``.`` empty and
    ``#`` covered; the code has bit ``r*cols + c`` set for every empty cell
    (row r, column c, from 0). Returns an int (< 2**64). Raises
    :class:`InputError` for other characters or rows of unequal length.
    """
    rows = text.strip().split("/")
    cols = len(rows[0])
    code = 0
    for r, row in enumerate(rows):
        if len(row) != cols:
            raise InputError(f"position '{text}': row {r + 1} has {len(row)} cells, the first has {cols}")
        for c, ch in enumerate(row):
            if ch == ".":
                code |= 1 << (r * cols + c)
            elif ch != "#":
                raise InputError(f"position '{text}': unexpected character '{ch}'")
    if len(rows) * cols > 64:
        raise InputError(f"position '{text}' has more than 64 cells")
    return code


def sum(*terms, play="both", winning_moves=True):  # noqa: A001 - the verb of `cgtb sum`
    """The outcome of the disjunctive sum of ``terms`` under normal and misère
    play, as the dict ``cgtb sum --json`` prints (see :class:`SumSolver`, which
    keeps its memo across sums)::

        cgtb.sum("cram-3x4.cgtb:..../..../....", "*1")["misere_outcome"]   # 'N'

    Raises :class:`InputError` for a bad term (an unknown file, a position the
    file does not hold, a partizan or scoring table, a malformed heap).
    """
    return SumSolver(play=play, winning_moves=winning_moves).solve(list(terms))
