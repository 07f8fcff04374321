#!/usr/bin/env python3
"""Per-kernel local memory and registers of the CUDA backend, without a GPU.

Usage: scripts/kernel-resources.py [--nvcc PATH] [--arch SM] [--build-dir DIR]
                                   [--all] [--check]

Compiles cuda/src/backend_cuda.cu as the build does (nvcc -O3, the given
architecture, default 90) with `-Xptxas -v`, reads what ptxas reports for each
kernel (stack frame, spill stores, registers) and prints one line per cgtb
kernel: the level kernels (one per game and value rule), the forward pass and
rank-table kernels of the reachable index, the record dictionary's kernels and
the option counts of --stats. --all adds Thrust's and CUB's own kernels.

Local memory that is not a register spill (stack frame minus spill stores)
holds a per-thread array or a struct copied out of the kernel's parameters: on
a GPU each access is a memory transaction instead of a register read.
--check exits with status 1, naming the kernels, when any cgtb kernel keeps
such an array, except the kernels whose position is itself an array, which
are reported only: the heap multisets (octal and scoring multiset tables, up
to 127 parts). Register spills are reported, not refused.

The include directories are the source tree's cuda/include and cuda/src and
the build directory's generated/ (cgtb/instantiations.inc), so run it after
cmake has configured DIR (default: build). Exit status 2, with a one-line
error, when nvcc is missing or fails or DIR is not configured.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Kernels of cgtb's own functors, and the short name printed for each.
OWN = re.compile(r"(cgtb::(?:interned_level_kernel|level_kernel|reach_kernel|rank_table_kernel|"
                 r"rank_table_check_kernel|option_count_kernel|dictionary_reinsert_kernel|occupied_slot)"
                 r"(?:<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)?)")
# Kernels --check reports without refusing (matched against the whole demangled
# name): their position is itself an array.
ARRAY_POSITIONS = re.compile(r"cgtb::heap_multiset_view")


def fail(message):
    sys.stderr.write(f"kernel-resources: error: {message}\n")
    sys.exit(2)


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        fail(f"cannot demangle kernel names with c++filt (binutils): {e}")
    return out.stdout.splitlines()


def ptxas_report(nvcc, arch, build_dir):
    """Returns [(mangled name, stack, spill stores, spill loads, registers)]."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nvcc, "-O3", "-DNDEBUG", "-std=c++17", "--expt-relaxed-constexpr",
               f"--generate-code=arch=compute_{arch},code=sm_{arch}", "-Xptxas", "-v",
               "-I" + os.path.join(ROOT, "cuda", "include"), "-I" + os.path.join(ROOT, "cuda", "src"),
               "-I" + os.path.join(build_dir, "generated"), "-x", "cu", "-c",
               os.path.join(ROOT, "cuda", "src", "backend_cuda.cu"), "-o", os.path.join(tmp, "k.o")]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            fail(f"cannot run nvcc ({nvcc}): {e.strerror}; give --nvcc PATH")
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-4000:])
        fail(f"nvcc failed (exit {run.returncode})")
    # Per entry: "Compiling entry function 'NAME'", then "Function properties
    # for NAME" and its stack line, then "Used N registers". The properties of
    # a callee that was not inlined come under its own name and are skipped.
    rows, cur, props_of_entry = [], None, False
    for line in run.stderr.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = [m.group(1), 0, 0, 0, 0]
            rows.append(cur)
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            props_of_entry = cur is not None and m.group(1) == cur[0]
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur and props_of_entry:
            cur[1:4] = [int(g) for g in m.groups()]
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            cur[4] = int(m.group(1))
    if not rows:
        fail("ptxas reported no kernel (was -Xptxas -v ignored?)")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nvcc", default=os.environ.get("CUDACXX", "/usr/local/cuda/bin/nvcc"),
                    help="the CUDA compiler (default: $CUDACXX or /usr/local/cuda/bin/nvcc)")
    ap.add_argument("--arch", default="90", help="compute capability to compile for, e.g. 90 (default)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                    help="a build directory cmake has configured (default: build)")
    ap.add_argument("--all", action="store_true", help="also Thrust's and CUB's own kernels")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a Cram, Domineering or RIT kernel keeps an array in local memory")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.build_dir, "generated", "cgtb", "instantiations.inc")):
        fail(f"{args.build_dir} is not a configured build directory "
             "(no generated/cgtb/instantiations.inc); run cmake first or give --build-dir")
    rows = ptxas_report(args.nvcc, args.arch, args.build_dir)
    names = demangle([r[0] for r in rows])
    lines, bad = {}, []
    for name, (_, stack, spill_st, _spill_ld, regs) in zip(names, rows):
        m = OWN.search(name)
        if not m and not args.all:
            continue
        short = m.group(1) if m else name[:120]
        kind = "reduce" if "Reduce" in name else ("select" if "Select" in name else "for_each")
        arrays = stack - spill_st
        key = (short, kind, stack, spill_st, regs)
        lines[key] = lines.get(key, 0) + 1
        if m and not ARRAY_POSITIONS.search(name) and arrays > 0:
            bad.append(f"{short} ({arrays} bytes)")
    print(f"{'stack':>6} {'spill':>6} {'regs':>5}  {'pass':<8} kernel (sm_{args.arch}, ptxas -v; "
          "stack beyond spills is per-thread arrays)")
    for (short, kind, stack, spill_st, regs), n in sorted(lines.items()):
        more = f"  x{n}" if n > 1 else ""
        print(f"{stack:6d} {spill_st:6d} {regs:5d}  {kind:<8} {short}{more}")
    if args.check:
        if bad:
            print("kernel-resources: kernels with arrays in local memory: " + "; ".join(sorted(set(bad))))
            return 1
        print("kernel-resources: no cgtb kernel keeps an array in local memory "
              "(heap multisets, whose positions are arrays, reported only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
