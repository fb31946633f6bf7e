#!/usr/bin/env python3
"""The kernels issue's target table from a gemmbench CSV (gemmbench --db ... --csv FILE).

    python3 tools/targets_table.py BENCH.csv

For each problem: cuBLAS, the fastest kernel of ours that gemmbench timed on it (the tuned
winner or a family default), the ratio, and for problems with M or N of 32 or less the effective
bandwidth (bytes of A, B and C once over the time). The geometric mean of the ratios closes it.
"""
import csv
import math
import re
import sys

SHAPE = re.compile(r"(\w\w):(\d+)x(\d+)x(\d+)")


def main(path):
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rows.setdefault(row["problem"], []).append(row)
    print("| problem | cuBLAS ms | cuBLAS | ours ms | ours | ratio (cuBLAS ms / ours) | our kernel |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for problem, entries in rows.items():
        layout, m, n, k = SHAPE.fullmatch(problem).groups()
        m, n, k = int(m), int(n), int(k)
        cublas = next((e for e in entries if e["version"] == "cuBLAS"), None)
        ours = [e for e in entries if e["version"] != "cuBLAS" and not e["check"].startswith("FAIL")]
        if not cublas or not ours:
            print(f"| {problem} | missing |")
            continue
        best = min(ours, key=lambda e: float(e["median_ms"]))
        cublas_ms, best_ms = float(cublas["median_ms"]), float(best["median_ms"])

        def rate(ms):
            if min(m, n) <= 32:
                return f"{4.0 * (m * k + k * n + m * n) / (ms * 1e-3) / 1e12:.2f} TB/s"
            return f"{2.0 * m * n * k / (ms * 1e-3) / 1e12:.1f} TFLOPS"

        ratio = cublas_ms / best_ms
        ratios.append(ratio)
        kernel = best["kernel"].replace("gemmtune_sgemm_", "")
        print(f"| {problem} | {cublas_ms:.4f} | {rate(cublas_ms)} | {best_ms:.4f} | {rate(best_ms)} | {ratio:.2f}x "
              f"| {best['version']}: {kernel} |")
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeometric mean of the ratios over {len(ratios)} problems: {geomean:.2f}x")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
