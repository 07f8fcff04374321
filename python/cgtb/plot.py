"""Plots of a tablebase with matplotlib: census, values, gs, outcomes.

    python3 -m cgtb.plot KIND FILE -o OUT.png [--dpi 100] [--title TEXT]

KIND is one of
  census    Cram (a genus table of reachable positions): reachable and wild
            positions per level, log scale;
  values    any impartial table: how many positions of each level have each
            Grundy value and each misere value (two heatmaps);
  gs        a two-heap scoring table (cgtb build scoring-sum): G_s of n*m as a
            heatmap, rows m, columns n (as `cgtb table` prints it);
  outcomes  any partizan table (Domineering): outcome classes L, R, N, P per
            level, normal and misere play (two panels).

Counts are of positions, each stored class of a symmetry-reduced table counted
with its orbit size. The *_data functions return NumPy arrays and need no
matplotlib; the plot_* functions return a matplotlib Figure (no display
needed: they draw on the Agg canvas).
"""

import argparse
import re
import sys

try:
    import numpy as np
except ImportError:  # said in one line: by main(), and by _open() to callers of the functions
    np = None

import cgtb

NUMPY_MISSING = "cgtb.plot needs NumPy, which is not installed (apt-get install python3-numpy, or pip install numpy)"

KINDS = ("census", "values", "gs", "outcomes")
#: Outcome class codes of the partizan fields normal_class and misere_class (docs/format.md).
CLASSES = ("P", "L", "R", "N")


def _open(tb):
    if np is None:
        raise ImportError(NUMPY_MISSING)
    return cgtb.open(tb) if isinstance(tb, (str, bytes)) or hasattr(tb, "__fspath__") else tb


# The plots each family's tables can have.
FAMILY_PLOTS = {"impartial": ("census", "values"), "partizan": ("outcomes",), "scoring": ("gs",)}


def _plots_of(family):
    """'; plot KIND instead' for a table of `family`, or ''."""
    kinds = FAMILY_PLOTS.get(family)
    return f"; plot {' or '.join(kinds)} instead" if kinds else ""


def _orbit(v, n):
    o = v.get("orbit")
    return np.ones(n, dtype=np.int64) if o is None else o.astype(np.int64)


def census_data(tb):
    """(levels, reachable, wild): int64 arrays, one entry per level of a Cram genus table.

    reachable[i] counts the positions of level levels[i] (orbit-weighted), wild[i]
    those whose genus is not that of a Nim position — `cgtb census --by-level`'s
    columns. Raises ValueError for a table without genus values or of all positions.
    """
    tb = _open(tb)
    if "genus1" not in tb.fields:
        if tb.family != "impartial":
            raise ValueError(
                f"census needs an impartial table with genus values (e.g. Cram); this is a {tb.family} table of "
                f"{tb.header.get('ruleset')}, which has no genus{_plots_of(tb.family)}"
            )
        raise ValueError(f"census needs a table with genus values (--values genus); this one stores {','.join(tb.fields)}")
    if tb.header.get("positions") != "reachable":
        raise ValueError("census needs a table of reachable positions (built without --positions all)")
    levels = np.array(tb.levels, dtype=np.int64)
    reach = np.zeros(len(levels), dtype=np.int64)
    wild = np.zeros(len(levels), dtype=np.int64)
    for i, L in enumerate(tb.levels):
        v = tb.level(L)
        o = _orbit(v, len(v["tame"]))
        reach[i] = o.sum()
        wild[i] = o[~v["tame"]].sum()
    return levels, reach, wild


def values_data(tb, field="grundy"):
    """(levels, values, counts) for an impartial table's field ("grundy" or "misere").

    counts[i, j] is how many positions of level levels[i] have value values[j]
    (orbit-weighted); values runs from 0 to the largest value in the table.
    """
    tb = _open(tb)
    if tb.family != "impartial":
        raise ValueError(f"values needs an impartial table; this one is {tb.family}")
    if field not in tb.fields:
        raise ValueError(f"the table stores no field {field!r} (it stores {','.join(tb.fields)})")
    levels = np.array(tb.levels, dtype=np.int64)
    per_level = []
    top = 0
    for L in tb.levels:
        v = tb.level(L)
        x = v[field]
        w = _orbit(v, len(x))
        per_level.append((x, w))
        if len(x):
            top = max(top, int(x.max()))
    counts = np.zeros((len(levels), top + 1), dtype=np.int64)
    for i, (x, w) in enumerate(per_level):
        counts[i] = np.bincount(x, weights=w, minlength=top + 1)[: top + 1].astype(np.int64)
    return levels, np.arange(top + 1, dtype=np.int64), counts


_TWO_HEAPS = re.compile(r"^\s*(\d+)\s*\D+\s*(\d+)\s*$")


def gs_data(tb):
    """(ns, ms, grid) for a two-heap scoring table: grid[m, n] = G_s of the position n*m.

    ns and ms are 0..max heap; grid is float64 with NaN where the table holds no
    position n*m. Raises ValueError for a table that is not a two-heap scoring table.
    """
    tb = _open(tb)
    if tb.family != "scoring" or "gs" not in tb.fields:
        raise ValueError(f"gs needs a two-heap scoring table (cgtb build scoring-sum); this one is {tb.game}")
    nn, mm, gg = [], [], []
    for L in tb.levels:
        names = tb.positions(L)
        g = tb.level(L)["gs"]
        for text, value in zip(names, g.tolist()):
            m = _TWO_HEAPS.match(text)
            if not m:
                raise ValueError(f"gs needs a two-heap scoring table; position {text!r} is not two heaps n*m")
            nn.append(int(m.group(1)))
            mm.append(int(m.group(2)))
            gg.append(value)
    nn, mm = np.array(nn, dtype=np.int64), np.array(mm, dtype=np.int64)
    grid = np.full((int(mm.max()) + 1 if len(mm) else 0, int(nn.max()) + 1 if len(nn) else 0), np.nan)
    grid[mm, nn] = gg
    return np.arange(grid.shape[1], dtype=np.int64), np.arange(grid.shape[0], dtype=np.int64), grid


def outcomes_data(tb):
    """(levels, counts) for a partizan table: counts[c, i, k] positions of level levels[i].

    c is 0 for normal play, 1 for misere play; k the class code of CLASSES
    (0=P, 1=L, 2=R, 3=N). Orbit-weighted for symmetry-reduced tables.
    """
    tb = _open(tb)
    if tb.family != "partizan":
        raise ValueError(f"outcomes needs a partizan table (e.g. Domineering); this one is {tb.family}")
    fields = [f for f in ("normal_class", "misere_class") if f in tb.fields]
    if len(fields) != 2:
        raise ValueError("outcomes needs a table with normal and misere values (--values normal,misere)")
    levels = np.array(tb.levels, dtype=np.int64)
    counts = np.zeros((2, len(levels), 4), dtype=np.int64)
    for i, L in enumerate(tb.levels):
        v = tb.level(L)
        w = _orbit(v, len(v[fields[0]]))
        for c, f in enumerate(fields):
            counts[c, i] = np.bincount(v[f], weights=w, minlength=4)[:4].astype(np.int64)
    return levels, counts


# --- figures -----------------------------------------------------------------


def _figure(**kw):
    from matplotlib.figure import Figure

    return Figure(**kw)


def _name(tb):
    return f"{tb.game} {tb.params}"


def plot_census(tb, title=None):
    """Figure: reachable and wild positions per level of a Cram genus table (log scale)."""
    tb = _open(tb)
    levels, reach, wild = census_data(tb)
    fig = _figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 * (np.min(np.diff(levels)) if len(levels) > 1 else 1)
    ax.bar(levels, reach, width=width, color="#4c72b0", label=f"reachable ({reach.sum():,})")
    ax.bar(levels, np.where(wild > 0, wild, np.nan), width=width * 0.6, color="#dd8452", label=f"wild ({wild.sum():,})")
    ax.set_yscale("log")
    ax.set_xticks(levels)
    ax.set_xlabel("level (empty cells)")
    ax.set_ylabel("positions")
    ax.set_title(title or f"{_name(tb)}: positions per level")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    return fig


def _heat(fig, ax, levels, values, counts, label):
    from matplotlib.colors import LogNorm

    data = np.ma.masked_equal(counts.T, 0)
    vmax = max(int(counts.max()) if counts.size else 1, 1)
    im = ax.pcolormesh(
        np.arange(len(levels) + 1) - 0.5, np.arange(len(values) + 1) - 0.5, data, norm=LogNorm(1, vmax), cmap="viridis"
    )
    ax.set_xticks(np.arange(len(levels)), [str(x) for x in levels])
    step = max(1, len(values) // 12)
    ax.set_yticks(values[::step])
    ax.set_xlabel("level")
    ax.set_ylabel(label)
    return im


def plot_values(tb, title=None):
    """Figure: heatmaps level x value -> positions, Grundy values and misere values."""
    tb = _open(tb)
    panels = [(f, lab) for f, lab in (("grundy", "Grundy value"), ("misere", "misère value")) if f in tb.fields]
    if not panels:
        raise ValueError(f"values needs a table with Grundy or misere values; this one stores {','.join(tb.fields)}")
    fig = _figure(figsize=(6.4 * len(panels), 4.4), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (field, label) in zip(axes, panels):
        levels, values, counts = values_data(tb, field)
        im = _heat(fig, ax, levels, values, counts, label)
        ax.set_title(label)
    fig.colorbar(im, ax=list(axes), label="positions")
    fig.suptitle(title or f"{_name(tb)}: values per level")
    return fig


def plot_gs(tb, title=None):
    """Figure: G_s of a two-heap scoring table, rows m, columns n."""
    tb = _open(tb)
    ns, ms, grid = gs_data(tb)
    fig = _figure(figsize=(6.4, 5.6), layout="constrained")
    ax = fig.add_subplot()
    lim = max(1.0, float(np.nanmax(np.abs(grid))) if grid.size else 1.0)
    im = ax.imshow(np.ma.masked_invalid(grid), origin="lower", cmap="RdBu_r", vmin=-lim, vmax=lim)
    if grid.size <= 400:
        for m in ms:
            for n in ns:
                if not np.isnan(grid[m, n]):
                    ax.text(n, m, str(int(grid[m, n])), ha="center", va="center", fontsize=7)
    ax.set_xticks(ns)
    ax.set_yticks(ms)
    ax.set_xlabel("n (left-hand heap)")
    ax.set_ylabel("m (right-hand heap)")
    fig.colorbar(im, ax=ax, label="$G_s$")
    ax.set_title(title or f"{tb.game}: $G_s$\n{tb.params}", fontsize=10)
    return fig


def plot_outcomes(tb, title=None):
    """Figure: outcome classes L, R, N, P per level (stacked bars), normal and misere."""
    tb = _open(tb)
    levels, counts = outcomes_data(tb)
    fig = _figure(figsize=(11, 4.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    colors = {"L": "#4c72b0", "R": "#c44e52", "N": "#55a868", "P": "#8172b2"}
    width = 0.8 * (np.min(np.diff(levels)) if len(levels) > 1 else 1)
    for c, (ax, name) in enumerate(zip(axes, ("normal play", "misère play"))):
        bottom = np.zeros(len(levels))
        for cls in ("L", "R", "N", "P"):
            k = CLASSES.index(cls)
            y = counts[c, :, k]
            ax.bar(levels, y, width=width, bottom=bottom, color=colors[cls], label=f"{cls} ({y.sum():,})")
            bottom += y
        ax.set_xticks(levels)
        ax.set_xlabel("level (empty cells)")
        ax.set_title(name)
        ax.legend(fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("positions")
    fig.suptitle(title or f"{_name(tb)}: outcome classes per level")
    return fig


PLOTS = {"census": plot_census, "values": plot_values, "gs": plot_gs, "outcomes": plot_outcomes}


def main(argv=None):
    doc = __doc__.split("\n\n")
    ap = argparse.ArgumentParser(
        prog="python3 -m cgtb.plot",
        description=doc[0],
        epilog="\n\n".join(doc[2:3]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("kind", choices=KINDS, metavar="KIND", help="census, values, gs or outcomes")
    ap.add_argument("file", metavar="FILE", help="a tablebase (.cgtb)")
    ap.add_argument("-o", "--output", required=True, metavar="OUT.png", help="the image to write")
    ap.add_argument("--dpi", type=int, default=100, help="resolution (default 100)")
    ap.add_argument("--title", help="the figure's title (default: the game, its parameters and the kind)")
    a = ap.parse_args(argv)
    if np is None:
        print(f"cgtb.plot: error: {NUMPY_MISSING}", file=sys.stderr)
        return 1
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        print("cgtb.plot: error: matplotlib is not installed (apt-get install python3-matplotlib)", file=sys.stderr)
        return 1
    try:
        with cgtb.open(a.file) as tb:
            fig = PLOTS[a.kind](tb, title=a.title)
        fig.savefig(a.output, dpi=a.dpi)
    except (cgtb.InputError, cgtb.ResourceError, ValueError, OSError) as e:
        print(f"cgtb.plot: error: {e}", file=sys.stderr)
        return 1
    print(f"wrote {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
