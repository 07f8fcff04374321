#!/usr/bin/env python3
"""Search the empty Cram rectangles and compare with the complete tables.

Usage: scripts/search-rectangles.py [--cgtb PATH] [--table FILE]
                                    [--time-limit SECONDS] [--max-cells N]
                                    [--threads T] [--tt-memory MB] [BOARD...]

For every Cram rectangle of at most --max-cells cells (default 42) listed in
docs/results.md (the values of the complete tables), or for the BOARDs given
(RxC), runs `cgtb search cram --board RxC --json` (with --table, reading the
component table) and prints one Markdown row: board, G by search, G of the
complete table, agreement, seconds, nodes, transposition entries. Boards with
more than 26 columns are searched turned a quarter (the same game); boards
with a side over 31 are skipped (the search's regions have sides up to 31).
A search stopped by --time-limit is reported with the values it excluded.
Exit status 1 when a finished search disagrees with the table.
"""

import argparse
import json
import os
import re
import subprocess
import sys


def table_values(results_md):
    """Board -> G from the Cram table of docs/results.md."""
    values = {}
    in_cram = False
    with open(results_md, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_cram = line.strip() == "## Cram"
            m = re.match(r"^\| (\d+)×(\d+) \| (\d+) \|", line)
            if in_cram and m:
                values[(int(m.group(1)), int(m.group(2)))] = int(m.group(3))
    return values


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cgtb", default=os.path.join(here, "..", "build", "cgtb"))
    ap.add_argument("--table")
    ap.add_argument("--time-limit", type=float, default=600)
    ap.add_argument("--max-cells", type=int, default=42)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--tt-memory", type=int, default=1024)
    ap.add_argument("boards", nargs="*")
    a = ap.parse_args()
    known = table_values(os.path.join(here, "..", "docs", "results.md"))
    if a.boards:
        boards = [tuple(int(x) for x in b.split("x")) for b in a.boards]
    else:
        boards = sorted((b for b in known if b[0] * b[1] <= a.max_cells), key=lambda b: (b[0] * b[1], b))
    print("| board | G (search) | G (table) | agree | seconds | nodes | transposition entries |")
    print("|---|---|---|---|---|---|---|")
    bad = 0
    for rows, cols in boards:
        r, c = (cols, rows) if cols > 26 else (rows, cols)
        if max(r, c) > 31:
            print(f"| {rows}×{cols} | skipped (a side over 31) | {known.get((rows, cols), '')} | | | | |")
            continue
        cmd = [a.cgtb, "search", "cram", "--board", f"{r}x{c}", "--json", "-q", "--time-limit", str(a.time_limit),
               "--threads", str(a.threads), "--tt-memory", str(a.tt_memory)]
        if a.table:
            cmd += ["--table", a.table]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode not in (0, 4):
            sys.exit(p.stderr.strip() or f"cgtb exited {p.returncode}")
        j = json.loads(p.stdout)
        want = known.get((rows, cols))
        if j["complete"]:
            got = str(j["grundy"])
            agree = "yes" if want is None or j["grundy"] == want else "NO"
            bad += agree == "NO"
        else:
            ex = j["regions"][0].get("excluded", []) if j["regions"] else []
            got = f"stopped at {a.time_limit:g} s (not {', '.join(map(str, ex))})" if ex else "stopped"
            agree = ""
        print(f"| {rows}×{cols} | {got} | {'' if want is None else want} | {agree} | {j['seconds']:.2f} | "
              f"{j['nodes']:,} | {j['tt_entries']:,} |", flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
