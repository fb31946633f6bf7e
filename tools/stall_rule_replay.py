#!/usr/bin/env python3
"""Replays guided search's stall rule (tuner/guided_strategy.hpp: kStallWindow, kStallGain) on
recorded measurements: for each problem, the strict class's measurements in the order they were
taken, cut where the last WINDOW of them bettered the best by less than GAIN. Prints, for each
(WINDOW, GAIN), how many measurements the cut keeps and how much slower its best is than the
uncut run's best.

Input: a CSV of `tunedb export` (bench/results/2026-12-07-h100-classes-measurements-9ebebed.csv.gz).
Measurements of an earlier run (another class's search that measured the same FFMA kernels,
--resumed-run) count as known from the start: the strict run resumed them, at places in its order
that the export does not keep.

    python3 tools/stall_rule_replay.py bench/results/2026-12-07-h100-classes-measurements-9ebebed.csv.gz \
        --precision strict --resumed-run tune-2026-12-07T04:31:40.348Z
"""
import argparse
import collections
import csv
import gzip
import math


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return list(csv.DictReader(f))


def replay(known_best, times, window, gain):
    """Measurements kept and the best among them (known_best counts from the start)."""
    best_after = []
    best = known_best
    for ms in times:
        best = min(best, ms)
        best_after.append(best)
    for i in range(window, len(times)):
        if math.isfinite(best_after[i]) and best_after[i] >= (1 - gain) * best_after[i - window]:
            return i + 1, best_after[i]
    return len(times), best_after[-1] if best_after else known_best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--precision", default="strict")
    parser.add_argument("--resumed-run", default="", help="tuner_run whose measurements count as known from the start")
    parser.add_argument("--windows", default="40,60,80,100")
    parser.add_argument("--gains", default="0.01,0.02")
    args = parser.parse_args()

    known = collections.defaultdict(lambda: math.inf)
    ordered = collections.defaultdict(list)
    for row in read_rows(args.csv):
        if row["precision"] != args.precision:
            continue
        ms = float(row["median_ms"]) if row["status"] == "ok" and row["median_ms"] else math.inf
        problem = (row["layout"], row["m"], row["n"], row["k"])
        if row["tuner_run"] == args.resumed_run:
            known[problem] = min(known[problem], ms)
        else:
            ordered[problem].append((row["measured_at"], ms))

    print("| window | gain | measured | of | share | mean loss | worst loss (problem) | problems > 1% slower |")
    print("|---|---|---|---|---|---|---|---|")
    for window in (int(w) for w in args.windows.split(",")):
        for gain in (float(g) for g in args.gains.split(",")):
            kept_all = total = 0
            losses = []
            for problem, entries in ordered.items():
                times = [ms for _, ms in sorted(entries)]
                full_best = min([known[problem]] + times)
                kept, best = replay(known[problem], times, window, gain)
                kept_all += kept
                total += len(times)
                losses.append((best / full_best - 1, problem))
            worst = max(losses)
            mean = sum(loss for loss, _ in losses) / len(losses)
            print(f"| {window} | {gain:.0%} | {kept_all} | {total} | {kept_all / total:.0%} | {mean:.2%} | "
                  f"{worst[0]:.2%} ({worst[1][0]} {'x'.join(worst[1][1:])}) | {sum(1 for l, _ in losses if l > 0.01)} |")


if __name__ == "__main__":
    main()
