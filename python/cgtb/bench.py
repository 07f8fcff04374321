"""Times Tablebase.query_many on random stored positions of a table.

    python3 -m cgtb.bench FILE [N]

Draws N (default 1,000,000) stored positions uniformly at random (seed 1), as
(level, rank) pairs, their texts, and for Cram and Domineering their codes
(cgtb.encode_cells), warms the block cache with one pass, then times one
query_many call per input kind and prints positions per second (the median of
three runs). docs/python.md records its figures.
"""

import argparse
import statistics
import time

import numpy as np

import cgtb


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m cgtb.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("n", nargs="?", type=int, default=1_000_000)
    a = ap.parse_args(argv)
    with cgtb.open(a.file) as tb:
        levels = np.array(tb.levels)
        sizes = np.array([tb.level_sizes[lv] for lv in tb.levels], dtype=np.float64)
        rng = np.random.default_rng(1)
        lv = rng.choice(levels, size=a.n, p=sizes / sizes.sum())
        rank = (rng.random(a.n) * np.array([tb.level_sizes[x] for x in levels])[np.searchsorted(levels, lv)]).astype(
            np.int64
        )
        pairs = np.stack([lv, rank], axis=1).astype(np.int64)
        names = {x: tb.positions(int(x)) for x in levels}
        texts = [names[x][r] for x, r in zip(lv.tolist(), rank.tolist())]
        inputs = [("strings", texts), ("(level, rank) pairs", pairs)]
        if tb.game in ("cram", "domineering"):
            inputs.insert(1, ("codes (uint64 cell masks)", np.array([cgtb.encode_cells(t) for t in texts], np.uint64)))
        print(f"{tb.game} {tb.params} ({len(tb)} stored positions), {a.n} random positions")
        for name, x in inputs:
            tb.query_many(x)  # warm
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                tb.query_many(x)
                times.append(time.perf_counter() - t0)
            print(f"  {name:28s} {a.n / statistics.median(times) / 1e6:6.2f} M positions/s")


if __name__ == "__main__":
    main()
