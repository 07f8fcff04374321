"""Fixtures of the Python module's tests: the CLI binary and small tablebases.

The module is imported from PYTHONPATH (CTest sets it to BUILD/python); the
command-line tool is CGTB_BINARY (CTest sets it), else build/cgtb of the
repository. Tables are built once per session with the CLI into CGTB_TEST_TMP
(else a pytest temporary folder).
"""

import csv
import io
import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# name -> `cgtb build` arguments (the game and its options). Small tables of
# every game, each family's index (ruleset ranks, keyed reachable classes).
TABLES = {
    "cram45": ["cram", "--board", "4x5"],
    "cram34all": ["cram", "--board", "3x4", "--positions", "all"],
    "dom44": ["domineering", "--board", "4x4"],
    "dom34all": ["domineering", "--board", "3x4", "--positions", "all"],
    "octal_total": ["octal", "--code", "0.07", "--max-total", "14"],
    "octal_heap": ["octal", "--code", "0.07", "--max-heap", "40"],
    "rit": ["rit", "--box", "4x4"],
    "cricket": ["cricket-pitch", "--length", "6", "--max-bump", "3"],
    "blocking": ["blocking-nim", "--blocks", "1", "--max", "3", "--max-pile", "40"],
    "scoring_octal": ["scoring-octal", "--subtract", "4,5", "--max", "14"],
    "scoring_sum": ["scoring-sum", "--op", "selective", "--left", "123:123", "--right", "s:4,5", "--max", "8"],
}


def cgtb_binary():
    return os.environ.get("CGTB_BINARY") or str(REPO / "build" / "cgtb")


class Cli:
    """Runs the command-line tool."""

    def __init__(self, binary):
        self.binary = binary

    def run(self, *args, stdin=None, check=True):
        p = subprocess.run([self.binary, *map(str, args)], input=stdin, capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"cgtb {' '.join(map(str, args))} failed ({p.returncode}): {p.stderr}")
        return p

    def query_json(self, path, positions, options=False):
        """One `cgtb query --json` over stdin: a dict per position."""
        args = ["query", "--json", path] + (["--options"] if options else [])
        out = self.run(*args, stdin="".join(p + "\n" for p in positions)).stdout
        return [json.loads(line) for line in out.splitlines()]

    def export_rows(self, path, level=None):
        args = ["export", path, "--format", "csv"] + ([] if level is None else ["--level", level])
        return list(csv.DictReader(io.StringIO(self.run(*args).stdout)))


@pytest.fixture(scope="session")
def cli():
    binary = cgtb_binary()
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no cgtb binary at {binary} (set CGTB_BINARY)")
    return Cli(binary)


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    d = os.environ.get("CGTB_TEST_TMP")
    if d:
        p = pathlib.Path(d)
        p.mkdir(parents=True, exist_ok=True)
        return p
    return tmp_path_factory.mktemp("tables")


@pytest.fixture(scope="session")
def tables(cli, table_dir):
    """name -> path of a freshly built table of TABLES."""
    paths = {}
    for name, args in TABLES.items():
        path = table_dir / f"{name}.cgtb"
        cli.run("build", *args, "-q", "--force", "-o", path)  # CGTB_TEST_TMP may hold an earlier run's
        paths[name] = str(path)
    return paths
