#!/usr/bin/env python3
"""Build the table of one board and print its row of docs/results.md.

Usage: scripts/results-row.py [--cgtb PATH] [--values KINDS] [--keep DIR]
                              [--max-memory SIZE] [--resume]
                              cram|domineering RxC

Builds the reachable, symmetry-reduced table (`cgtb build GAME --board RxC`),
asks it for the empty board (`cgtb query --json`) and, for a Cram table with
the genus, for its census (`cgtb census`), and prints one Markdown row in the
columns of docs/results.md:

  Cram, every value:   board, G, G-, genus, tame/wild, normal and misere
                       outcome, misere winning openings, reachable positions,
                       wild, smallest wild level, build time
  Cram, --values normal,misere (the "Larger boards" table):
                       board, G, G-, outcomes, normal and misere winning
                       openings, reachable and stored positions, build time,
                       peak memory and file size
  Domineering:         board, normal and misere outcome, and who wins with
                       each player moving first, build time

--max-memory and --resume are passed to `cgtb build` (with --resume, give
--keep so that a killed build continues from its checkpoint when the same
command is run again; the build time is then that of the last run).
Every figure comes from cgtb's own output; the script only formats it. A
board of more than 26 columns is built turned a quarter: for Cram the same
game (its openings are named on that board), for Domineering the same game
with Left and Right exchanged, which the row undoes.
Exit status: non-zero, with cgtb's one-line error, when a command fails.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """Runs cmd; returns its stdout; exits with its stderr when it fails."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return r.stdout


def openings(moves, total, listed=6):
    """'none', 'all N', 'K: m1 m2 ...' (at most `listed` moves) or 'K of N'."""
    k = len(moves)
    if k == 0:
        return "none"
    if k == total:
        return f"all {total}"
    if k <= listed:
        return f"{k}: " + " ".join(moves)
    return f"{k} of {total}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["cram", "domineering"])
    ap.add_argument("board", help="RxC, e.g. 6x6")
    ap.add_argument("--cgtb", default=os.path.join(os.path.dirname(__file__), "..", "build", "cgtb"))
    ap.add_argument("--values", help="value kinds to build (cgtb build --values), e.g. normal,misere")
    ap.add_argument("--keep", help="directory to keep the table in (default: a temporary one, removed)")
    ap.add_argument("--max-memory", help="passed to cgtb build, e.g. 19G")
    ap.add_argument("--resume", action="store_true", help="passed to cgtb build (give --keep too)")
    a = ap.parse_args()
    if a.resume and not a.keep:
        sys.exit("--resume needs --keep DIR: the checkpoint lives beside the table")

    m = re.fullmatch(r"(\d+)x(\d+)", a.board)
    if not m:
        sys.exit(f"board '{a.board}' is not RxC")
    rows, cols = int(m.group(1)), int(m.group(2))
    shown = f"{min(rows, cols)}×{max(rows, cols)}" if a.game == "cram" else f"{rows}×{cols}"
    # A board of more than 26 columns is built turned a quarter, writable with
    # 26 column letters: the same Cram game; for Domineering the same game
    # with Left and Right exchanged (undone below).
    turned = cols > 26
    if turned:
        rows, cols = cols, rows

    with tempfile.TemporaryDirectory() as tmp:
        out_dir = a.keep or tmp
        path = os.path.join(out_dir, f"{a.game}-{rows}x{cols}.cgtb")
        cmd = [a.cgtb, "build", a.game, "--board", f"{rows}x{cols}", "-q", "--force", "-o", path]
        if a.values:
            cmd += ["--values", a.values]
        if a.max_memory:
            cmd += ["--max-memory", a.max_memory]
        if a.resume:
            cmd.append("--resume")
        t0 = time.monotonic()
        run(cmd)
        seconds = time.monotonic() - t0
        peak_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / 1e9
        file_gb = os.path.getsize(path) / 1e9
        empty = "/".join(["." * cols] * rows)
        q = json.loads(run([a.cgtb, "query", "--json", path, empty]))
        moves = rows * (cols - 1) + cols * (rows - 1)
        took = f"{seconds:.2f} s" if seconds < 600 else f"{int(seconds // 60)} min {int(seconds % 60):02d} s"

        if a.game == "domineering":

            def wins(b):
                return "wins" if b else "loses"

            def player(side):
                return {"left": "right", "right": "left"}[side] if turned else side

            def outcome(o):
                return {"L": "R", "R": "L"}.get(o, o) if turned else o

            cells = [shown, outcome(q["normal_outcome"]), outcome(q["misere_outcome"])]
            cells += [wins(q[f"{play}_{player(side)}_first_wins"]) for play in ("normal", "misere")
                      for side in ("left", "right")]
            cells.append(took)
        elif "genus" in q:
            census = run([a.cgtb, "census", path])
            reach = re.search(r"reachable positions \(start included\): (\d+)", census).group(1)
            wild = re.search(r"wild: (\d+)", census).group(1)
            smallest = re.search(r"smallest wild level: (\d+)", census)
            cells = [shown, q["grundy"], q["misere"], q["genus"], "tame" if q["tame"] else "wild",
                     q["normal_outcome"], q["misere_outcome"], openings(q["misere_winning_moves"], moves),
                     f"{int(reach):,}", f"{int(wild):,}", smallest.group(1) if smallest else "none", took]
        else:
            info = run([a.cgtb, "info", path]).replace(",", "")
            reach = re.search(r"^total: (\d+) positions", info, re.M)
            stored = re.search(r"^stored positions \(one per symmetry class\): (\d+)", info, re.M)
            cells = [shown, q["grundy"], q["misere"], q["normal_outcome"], q["misere_outcome"],
                     openings(q["normal_winning_moves"], moves, 0), openings(q["misere_winning_moves"], moves, 0),
                     f"{int(reach.group(1)):,}" if reach else "?", f"{int(stored.group(1)):,}" if stored else "?",
                     f"{took}, {peak_gb:.1f} GB peak, {file_gb:.2f} GB file"]
        print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)
        print(f"{a.game} {a.board}: build {took}, peak {peak_gb:.2f} GB, file {file_gb:.3f} GB", file=sys.stderr)


if __name__ == "__main__":
    main()
