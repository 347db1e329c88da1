#!/usr/bin/env python3
"""Markdown tables for docs/perf.md from sptir-bench --json lines.

For each op: one row per matrix and feature size with the best verified
sptir format, its time, cuSPARSE's time, the speedup, and the effective
bandwidth (the bytes a kernel must move at least: the sparse matrix once,
the dense operands once, the output once) against the copy ceiling.
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


def main(path):
    runs = [json.loads(line) for line in open(path) if line.startswith("{")]
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
                f"| {run['matrix']} | {run['nnz']} | {run['feat']} | {run['format']} | {run['ms']:.4f} | "
                f"{run['baseline_ms']:.4f} | {run['speedup']:.2f} | {gbs:.0f} | {100 * gbs / CEILING_GBS:.0f}% |"
            )
        geomean = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        print(f"\nGeometric-mean speedup over cuSPARSE ({len(speedups)} cases): {geomean:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin")
