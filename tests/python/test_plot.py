"""cgtb.plot: each plotted count against the command-line tool, and the PNGs it writes.

The data functions (census_data, values_data, gs_data, outcomes_data) need no
matplotlib and are checked against `cgtb census --by-level`, `cgtb export` and
`cgtb table`; the figures and the `python3 -m cgtb.plot` command line are
skipped when matplotlib is missing.
"""

import collections
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import cgtb
from cgtb import plot

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def census_by_level(cli, path):
    out = cli.run("census", "--by-level", path).stdout
    rows = re.findall(r"^\s*level (\d+): (\d+) reachable, (\d+) wild$", out, re.M)
    return {int(L): (int(r), int(w)) for L, r, w in rows}


def export_counts(cli, path, field):
    """{(level, value): positions} from `cgtb export --format csv`, orbit-weighted."""
    c = collections.Counter()
    for row in cli.export_rows(path):
        c[int(row["level"]), int(row[field])] += int(row.get("orbit") or 1)
    return c


def test_census_data_equals_cli_census(cli, tables):
    levels, reach, wild = plot.census_data(tables["cram45"])
    expect = census_by_level(cli, tables["cram45"])
    assert sorted(expect) == levels.tolist()
    assert [expect[L] for L in levels.tolist()] == list(zip(reach.tolist(), wild.tolist()))
    assert reach.sum() == 58830 and wild.sum() == 3254
    assert reach.dtype == np.int64 and wild.dtype == np.int64


def test_census_refuses_other_tables(tables):
    with pytest.raises(ValueError, match="reachable positions"):
        plot.census_data(tables["cram34all"])
    with pytest.raises(ValueError, match="genus"):
        plot.census_data(tables["dom44"])


@pytest.mark.parametrize("name", ["cram45", "cram34all", "octal_total"])
@pytest.mark.parametrize("field", ["grundy", "misere"])
def test_values_data_equals_export(cli, tables, name, field):
    levels, values, counts = plot.values_data(tables[name], field)
    expect = export_counts(cli, tables[name], field)
    got = {(L, v): int(counts[i, j]) for i, L in enumerate(levels.tolist()) for j, v in enumerate(values.tolist())}
    assert {k: n for k, n in got.items() if n} == dict(expect)
    assert values.tolist() == list(range(max(v for _, v in expect) + 1))
    with cgtb.open(tables[name]) as tb:
        assert counts.sum() == sum(int(tb.orbits(L).sum()) for L in tb.levels)


def test_values_refuses_partizan(tables):
    with pytest.raises(ValueError, match="impartial"):
        plot.values_data(tables["dom44"])


def test_gs_data_equals_cli_table(cli, tables):
    ns, ms, grid = plot.gs_data(tables["scoring_sum"])
    assert ns.tolist() == list(range(9)) and ms.tolist() == list(range(9))
    out = cli.run("table", tables["scoring_sum"], "--rows", "0..8", "--cols", "0..8", "--csv").stdout.splitlines()
    assert out[0].split(",")[1:] == [str(n) for n in range(9)]
    for line in out[1:]:
        m, *vals = line.split(",")
        for n, v in enumerate(vals):
            if v.strip() in ("", "-", "."):
                assert np.isnan(grid[int(m), n])
            else:
                assert grid[int(m), n] == int(v), (m, n)
    # and every stored position against the export
    for row in cli.export_rows(tables["scoring_sum"]):
        n, m = map(int, re.match(r"(\d+)\D+(\d+)$", row["position"]).groups())
        assert grid[m, n] == int(row["gs"])


def test_gs_refuses_other_tables(tables):
    with pytest.raises(ValueError, match="two-heap scoring"):
        plot.gs_data(tables["cram45"])
    with pytest.raises(ValueError, match="two-heap"):
        plot.gs_data(tables["scoring_octal"])  # one heap


@pytest.mark.parametrize("name", ["dom44", "dom34all"])
def test_outcomes_data_equals_export(cli, tables, name):
    levels, counts = plot.outcomes_data(tables[name])
    assert counts.shape == (2, len(levels), 4)
    for c, field in enumerate(("normal_class", "misere_class")):
        expect = export_counts(cli, tables[name], field)
        got = {(L, k): int(counts[c, i, k]) for i, L in enumerate(levels.tolist()) for k in range(4)}
        assert {key: n for key, n in got.items() if n} == dict(expect)


def test_outcomes_class_codes_match_query(cli, tables):
    """The class codes 0=P, 1=L, 2=R, 3=N against `cgtb query --json` outcomes."""
    with cgtb.open(tables["dom44"]) as tb:
        L = tb.levels[3]
        names = tb.positions(L)[:50]
        v = tb.level(L)
    for i, q in enumerate(cli.query_json(tables["dom44"], names)):
        assert plot.CLASSES[v["normal_class"][i]] == q["normal_outcome"]
        assert plot.CLASSES[v["misere_class"][i]] == q["misere_outcome"]


def test_outcomes_refuses_impartial(tables):
    with pytest.raises(ValueError, match="partizan"):
        plot.outcomes_data(tables["cram45"])


def test_data_functions_need_no_matplotlib(tables):
    code = (
        "import sys, cgtb.plot as p\n"
        f"p.census_data({tables['cram45']!r}); p.values_data({tables['cram45']!r})\n"
        f"p.gs_data({tables['scoring_sum']!r}); p.outcomes_data({tables['dom44']!r})\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))


# --- figures and the command line (matplotlib) --------------------------------

KIND_TABLES = [("census", "cram45"), ("values", "cram45"), ("values", "octal_total"), ("gs", "scoring_sum"), ("outcomes", "dom44")]


@pytest.mark.parametrize("kind,name", KIND_TABLES)
def test_main_writes_png(tables, tmp_path, kind, name, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"{kind}-{name}.png"
    assert plot.main([kind, tables[name], "-o", str(out), "--dpi", "50"]) == 0
    data = out.read_bytes()
    assert len(data) > 1000 and data[:8] == PNG_MAGIC
    assert f"wrote {out}" in capsys.readouterr().out


@pytest.mark.parametrize("kind,name", KIND_TABLES)
def test_plot_functions_return_figures(tables, kind, name):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    fig = plot.PLOTS[kind](tables[name], title="t")
    assert isinstance(fig, Figure) and fig.axes


def run_module(*args):
    return subprocess.run(
        [sys.executable, "-m", "cgtb.plot", *map(str, args)], capture_output=True, text=True, env=dict(os.environ)
    )


def test_command_line(tables, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "o.png"
    p = run_module("outcomes", tables["dom44"], "-o", out)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == PNG_MAGIC
    h = run_module("--help")
    assert h.returncode == 0 and "census" in h.stdout and "outcomes" in h.stdout


@pytest.mark.parametrize(
    "args,rc,msg",
    [
        (["gs", "cram45"], 1, "cgtb.plot: error: gs needs a two-heap scoring table"),
        (["census", "dom44"], 1, "cgtb.plot: error: census needs an impartial table with genus values"),
        (["outcomes", "octal_total"], 1, "cgtb.plot: error: outcomes needs a partizan table"),
        (["census", "/nonexistent.cgtb"], 1, "cgtb.plot: error: '/nonexistent.cgtb'"),
        (["pie", "cram45"], 2, "invalid choice"),
    ],
)
def test_command_line_errors(tables, tmp_path, args, rc, msg):
    pytest.importorskip("matplotlib")
    kind, name = args
    out = tmp_path / "x.png"
    p = run_module(kind, tables.get(name, name), "-o", out)
    assert p.returncode == rc
    assert msg in p.stderr
    if rc == 1:
        assert len(p.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_census_of_a_partizan_table_suggests_its_own_plots(tables):
    with pytest.raises(ValueError) as e:
        plot.census_data(tables["dom44"])
    assert "--values genus" not in str(e.value) and "partizan" in str(e.value) and "outcomes" in str(e.value)


# Runs Python with NumPy hidden: an import of numpy fails as where it is not installed.
NO_NUMPY = "import sys; sys.modules['numpy'] = None\n"


def test_without_numpy_the_command_line_says_what_to_install(tables, tmp_path):
    code = NO_NUMPY + "import runpy; sys.argv = ['cgtb.plot'] + sys.argv[1:]; runpy.run_module('cgtb.plot', run_name='__main__')"
    out = tmp_path / "x.png"
    p = subprocess.run([sys.executable, "-c", code, "census", tables["cram45"], "-o", str(out)],
                       capture_output=True, text=True, env=dict(os.environ))
    assert p.returncode == 1, p.stderr
    assert p.stderr.strip().splitlines() == [
        "cgtb.plot: error: cgtb.plot needs NumPy, which is not installed (apt-get install python3-numpy, or pip install numpy)"
    ]
    assert not out.exists()


def test_without_numpy_the_data_functions_raise_import_error(tables):
    code = NO_NUMPY + (
        "import cgtb.plot as p\n"
        "try:\n"
        f"    p.census_data({tables['cram45']!r})\n"
        "except ImportError as e:\n"
        "    assert 'python3-numpy' in str(e), e\n"
        "else:\n"
        "    raise AssertionError('no ImportError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))


def test_command_line_needs_output(tables):
    p = run_module("census", tables["cram45"])
    assert p.returncode == 2 and "-o" in p.stderr
