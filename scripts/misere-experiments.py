#!/usr/bin/env python3
"""Misère Cram in company: the substitution tests, the no-disguise test and
sums of two wild boards from "Cram with the last move losing" (the sections
"What tame buys, tested in wild company" and "Still open"), recomputed with
`cgtb sum`; and the sum benchmark of docs/performance.md.

    scripts/misere-experiments.py [--cgtb build/cgtb] [--dir DIR] substitution
    scripts/misere-experiments.py ... disguise
    scripts/misere-experiments.py ... pairs [--boards 3x4,2x7,4x4,3x6,4x5]
    scripts/misere-experiments.py ... bench [--sums 1000000]
    scripts/misere-experiments.py ... all

Every outcome printed is computed by `cgtb sum` (one process per experiment,
sums on stdin); this script only writes the sums and counts the answers.
Tables are built into DIR (default ./misere-tables) when missing.
"""
import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import time

EMPTY = {}  # board -> its empty position text


def empty_board(board):
    rows, cols = (int(x) for x in board.split("x"))
    return "/".join(["." * cols] * rows)


class Tables:
    def __init__(self, cgtb, folder):
        self.cgtb, self.dir = cgtb, folder
        os.makedirs(folder, exist_ok=True)

    def path(self, board):
        p = os.path.join(self.dir, "cram-%s.cgtb" % board)
        if not os.path.exists(p):
            subprocess.run([self.cgtb, "build", "cram", "--board", board, "--values", "all", "-q", "-o", p],
                           check=True)
        return p

    def term(self, board, position=None):
        return "%s:%s" % (self.path(board), position or empty_board(board))

    def query(self, board, position=None):
        out = subprocess.run([self.cgtb, "query", "--json", self.path(board), position or empty_board(board)],
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)


def run_sums(cgtb, sums, extra=()):
    """Misère outcomes ('N'/'P') of sums (lists of terms), in order, and the
    seconds the cgtb process took."""
    text = "".join(" ".join(s or ["*0"]) + "\n" for s in sums)
    t0 = time.monotonic()
    out = subprocess.run([cgtb, "sum", "--json", "--no-moves", "--play", "misere", *extra], input=text,
                         check=True, capture_output=True, text=True).stdout
    secs = time.monotonic() - t0
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(sums), "cgtb sum answered %d of %d sums" % (len(answers), len(sums))
    return [a["misere_outcome"] for a in answers], secs


def heaps(counts):
    return ["*%d" % n for n in counts]


def nim_positions(max_heaps, max_size):
    """Every Nim position (a multiset of heaps 1..max_size) of up to
    max_heaps heaps, the empty one first."""
    out = []
    for k in range(max_heaps + 1):
        out.extend(itertools.combinations_with_replacement(range(1, max_size + 1), k))
    return out


def substitution(t, cgtb):
    """Each board replaced by a Nim position beside three companies, each with
    every Nim position of up to two heaps of up to three."""
    wild_region = "..../##../...."  # 3 x 4 with two adjacent middle-row cells covered at one end
    companies = [("nothing", []), ("the strip of ten", [t.term("1x10")]),
                 ("the wild ten-square region of 3x4", [t.term("3x4", wild_region)])]
    tests = [("3x4", "*1", True), ("2x7", "*1", True), ("1x4", "*2", True), ("3x4", "nothing", False),
             ("1x4", "*3", False)]
    nims = nim_positions(2, 3)
    print("## Substitution in wild company\n")
    print("The wild region %s has genus %s." % (wild_region, t.query("3x4", wild_region)["genus"]))
    print("Each test: 3 companies x %d Nim positions (up to two heaps of up to three) = %d sums.\n"
          % (len(nims), 3 * len(nims)))
    print("| board | genus | replaced by | agree | disagree | first disagreement |")
    print("|---|---|---|---|---|---|")
    total_secs = 0.0
    for board, repl, named in tests:
        with_board, with_repl, where = [], [], []
        for cname, comp in companies:
            for n in nims:
                with_board.append([t.term(board)] + comp + heaps(n))
                with_repl.append(([] if repl == "nothing" else [repl]) + comp + heaps(n))
                where.append("beside %s%s" % (cname, " + " + " + ".join(heaps(n)) if n else ""))
        a, s1 = run_sums(cgtb, with_board)
        b, s2 = run_sums(cgtb, with_repl)
        total_secs += s1 + s2
        agree = sum(x == y for x, y in zip(a, b))
        first = next(("%s: %s vs %s" % (w, x, y) for w, x, y in zip(where, a, b) if x != y), "none")
        print("| %s | %s | %s%s | %d | %d | %s |" % (board, t.query(board)["genus"], repl,
                                                  "" if named else " (wrong)", agree, len(a) - agree, first))
    print("\n%.2f s of cgtb sum in all.\n" % total_secs)


def disguise(t, cgtb):
    """3x6 and 4x5 against every Nim position of up to three heaps of up to
    seven, in the misère sums with up to three further heaps of up to five."""
    tests = nim_positions(3, 5)
    candidates = nim_positions(3, 7)
    print("## No disguise\n")
    print("%d candidates (up to three heaps of up to seven, the empty one included), %d test sums "
          "(up to three further heaps of up to five).\n" % (len(candidates), len(tests)))
    print("| board | genus | candidates that agree on every test | fewest disagreements | closest candidate |")
    print("|---|---|---|---|---|")
    t0 = time.monotonic()
    sums = [heaps(c) + heaps(x) for c in candidates for x in tests]
    nim, _ = run_sums(cgtb, sums)
    for board in ("3x6", "4x5"):
        ref, _ = run_sums(cgtb, [[t.term(board)] + heaps(x) for x in tests])
        best, best_c, agreeing = None, None, 0
        for i, c in enumerate(candidates):
            d = sum(nim[i * len(tests) + j] != ref[j] for j in range(len(tests)))
            agreeing += d == 0
            if best is None or d < best:
                best, best_c = d, c
        print("| %s | %s | %d | %d | %s |" % (board, t.query(board)["genus"], agreeing, best,
                                            " + ".join(heaps(best_c)) or "0"))
    print("\n%.2f s in all (%d sums).\n" % (time.monotonic() - t0, len(sums) + 2 * len(tests)))


def nim_of_genus(q):
    """The Nim position with a tame genus (as heap terms): fickle 0^{120} is
    nothing and 1^{031} one counter; firm n^{n,n^2} is *n for n >= 2, *2 + *2
    for n = 0 and *3 + *2 for n = 1."""
    g = q["grundy"]
    if q["misere"] != g:  # fickle
        return [] if g == 0 else ["*1"]
    return ["*%d" % g] if g >= 2 else (["*2", "*2"] if g == 0 else ["*3", "*2"])


def pairs(t, cgtb, boards):
    """Each pair of boards: the searched misère outcome, and where a board is
    tame, the outcome with it replaced by the Nim position of its genus."""
    print("## Boards beside boards\n")
    print("| sum | genera | normal | misère, searched | sums searched | seconds | tame boards replaced by Nim | misère then |")
    print("|---|---|---|---|---|---|---|---|")
    for a, b in itertools.combinations_with_replacement(boards, 2):
        qa, qb = t.query(a), t.query(b)
        t0 = time.monotonic()
        out = subprocess.run([cgtb, "sum", "--json", "--no-moves", t.term(a), t.term(b)], check=True,
                             capture_output=True, text=True).stdout
        secs = time.monotonic() - t0
        j = json.loads(out)
        subst, then = "none (both wild)", ""
        if qa["tame"] or qb["tame"]:
            terms, labels = [], []
            for board, q in ((a, qa), (b, qb)):
                terms += nim_of_genus(q) if q["tame"] else [t.term(board)]
                labels += nim_of_genus(q) if q["tame"] else [board]
            subst = " + ".join(labels) or "0"
            then = run_sums(cgtb, [terms])[0][0]
            then += " (agrees)" if then == j["misere_outcome"] else " (DISAGREES)"
        print("| %s + %s | %s, %s | %s | %s | %d | %.2f | %s | %s |" % (
            a, b, qa["genus"], qb["genus"], j["normal_outcome"], j["misere_outcome"], j["searched"], secs, subst, then))
    print()


def bench(t, cgtb, n):
    """n misère sums of two random reachable 4x5 positions and a Nim heap."""
    rows = subprocess.run([cgtb, "export", t.path("4x5")], check=True, capture_output=True,
                          text=True).stdout.splitlines()[1:]
    positions = [r.split(",")[2] for r in rows]
    rng = random.Random(1)
    path = t.path("4x5")
    text = "".join("%s:%s %s:%s *%d\n" % (path, rng.choice(positions), path, rng.choice(positions), rng.randrange(8))
                   for _ in range(n))
    t0 = time.monotonic()
    res = subprocess.run([cgtb, "sum", "--no-moves", "--play", "misere", "--json", "--stats"], input=text,
                         check=True, capture_output=True, text=True)
    secs = time.monotonic() - t0
    answered = len(res.stdout.splitlines())
    print("## Benchmark\n")
    print("%d misère sums of two random reachable 4x5 positions (of %d stored) and a heap of 0-7: %.1f s, "
          "%.0f sums/s" % (answered, len(positions), secs, answered / secs))
    print(res.stderr.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cgtb", default="build/cgtb")
    ap.add_argument("--dir", default="misere-tables")
    ap.add_argument("--boards", default="3x4,2x7,4x4,3x6,4x5")
    ap.add_argument("--sums", type=int, default=1000000)
    ap.add_argument("experiment", choices=["substitution", "disguise", "pairs", "bench", "all"])
    args = ap.parse_args()
    t = Tables(args.cgtb, args.dir)
    if args.experiment in ("substitution", "all"):
        substitution(t, args.cgtb)
    if args.experiment in ("disguise", "all"):
        disguise(t, args.cgtb)
    if args.experiment in ("pairs", "all"):
        pairs(t, args.cgtb, args.boards.split(","))
    if args.experiment in ("bench", "all"):
        bench(t, args.cgtb, args.sums)
    return 0


if __name__ == "__main__":
    sys.exit(main())
