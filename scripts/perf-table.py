#!/usr/bin/env python3
"""Markdown tables for docs/perf.md from sptir-bench --json lines.

For each op: one row per matrix and feature size with the best verified
sptir format, its time, cuSPARSE's time, the speedup, and the effective
bandwidth (the bytes a kernel must move at least: the sparse matrix once,
the dense operands once, the output once) against the copy ceiling. Only
the runs of one build of sptir-bench count (the "build" of the file's last
line; lines of older builds, which gpu-perf.sh leaves in a file it resumes,
are named on stderr), and the table says which build and timing it shows.

With --sweep: lines carrying a "label" (schedules run side by side, as
build-gpu sweeps write them) become one table per op, a column per label,
each cell the speedup over cuSPARSE as measured by the run labelled
"default" for that matrix and feature size (same device call, its own
process), or by the run itself where it timed cuSPARSE too (then the
cuSPARSE column is the default's, or the last run's without one).
"""
import json
import math
import sys

CEILING_GBS = 3000.0  # H100 SXM copy ceiling, about 3.0 TB/s


def compulsory_bytes(run):
    m, n, nnz, feat = run["rows"], run["cols"], run["nnz"], run["feat"]
    sparse = (m + 1) * 4 + nnz * 8  # indptr, indices, values
    if run["op"] == "spmm":
        return sparse + n * feat * 4 + m * feat * 4
    # SDDMM reads both dense operands once and writes one value a non-zero.
    return sparse + (m + n) * feat * 4 + nnz * 4


def variant(run):
    """The format, and `hyb-x` for hyb SpMM with --hyb-exclusive."""
    return "hyb-x" if run.get("hyb_exclusive") else run["format"]


def main(path):
    runs = [json.loads(line) for line in open(path) if line.startswith("{")]
    builds = list(dict.fromkeys(run.get("build", "unknown") for run in runs))
    if len(builds) > 1:
        print(f"perf-table.py: {path} holds runs of builds {', '.join(builds)}; the tables are of {builds[-1]}", file=sys.stderr)
    runs = [run for run in runs if run.get("build", "unknown") == builds[-1]]
    best = {}
    for run in runs:
        if not run.get("verified") or "baseline_ms" not in run:
            continue
        key = (run["op"], run["matrix"], run["feat"])
        if key not in best or run["ms"] < best[key]["ms"]:
            best[key] = run
    for op in sorted({k[0] for k in best}):
        print(f"\n### {op}\n")
        print("| matrix | nnz | feat | format | sptir ms | cuSPARSE ms | speedup | GB/s | % of copy |")
        print("|---|---|---|---|---|---|---|---|---|")
        speedups = []
        for key in sorted(k for k in best if k[0] == op):
            run = best[key]
            gbs = compulsory_bytes(run) / (run["ms"] * 1e6)
            speedups.append(run["speedup"])
            print(
                f"| {run['matrix']} | {run['nnz']} | {run['feat']} | {variant(run)} | {run['ms']:.4f} | "
                f"{run['baseline_ms']:.4f} | {run['speedup']:.2f} | {gbs:.0f} | {100 * gbs / CEILING_GBS:.0f}% |"
            )
        geomean = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        print(f"\nGeometric-mean speedup over cuSPARSE ({len(speedups)} cases): {geomean:.2f}x")
        timings = sorted({best[k].get("timing", "launch") for k in best if k[0] == op})
        print(f"\nBuild {builds[-1]}, timing {' and '.join(timings)}" + (" (MIXED: not comparable row for row)" if len(timings) > 1 else ""))


def sweep(path):
    runs = [json.loads(line) for line in open(path) if line.startswith("{")]
    for op in sorted({run["op"] for run in runs}):
        ops = [run for run in runs if run["op"] == op]
        labels = list(dict.fromkeys(run["label"] for run in ops))
        baseline = {(r["matrix"], r["feat"]): r["baseline_ms"] for r in ops if "baseline_ms" in r}
        baseline.update(
            {(r["matrix"], r["feat"]): r["baseline_ms"] for r in ops if "baseline_ms" in r and r["label"] == "default"}
        )
        cells = {(r["matrix"], r["feat"], r["label"]): r for r in ops}
        print(f"\n### {op}: speedup over cuSPARSE\n")
        print("| matrix | feat | cuSPARSE ms | " + " | ".join(labels) + " |")
        print("|---|---|---|" + "---|" * len(labels))
        for matrix, feat in dict.fromkeys((r["matrix"], r["feat"]) for r in ops):
            ms = baseline.get((matrix, feat))
            row = []
            for label in labels:
                run = cells.get((matrix, feat, label))
                if run is None or ms is None:
                    row.append("-")
                else:
                    mark = "" if run["verified"] else " WRONG"
                    speedup = run["baseline_ms"] / run["ms"] if "baseline_ms" in run else ms / run["ms"]
                    row.append(f"{speedup:.2f}{mark}")
            print(f"| {matrix} | {feat} | {ms if ms is not None else '-'} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--sweep"]:
        sweep(sys.argv[2] if len(sys.argv) > 2 else "/dev/stdin")
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin")
