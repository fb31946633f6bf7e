#!/usr/bin/env python3
"""Compares a guided search with an exhaustive one over the same problems and families.

    python3 tools/strategy_table.py EXHAUSTIVE.db GUIDED.db

For each problem: the size of the space (every configuration the exhaustive run tried), how many
the guided run tried, and two ratios of speed:
  - own runs: exhaustive's best time / guided's best time, each from its own run (includes the
    run-to-run noise of two measurements);
  - same run: exhaustive's best time / the time the exhaustive run measured for guided's winner
    (the same measurement session, so only the choice differs).
Exits 1 if a database lacks a problem of the other.
"""
import sqlite3
import sys

PER_PROBLEM = """
SELECT p.layout, p.m, p.n, p.k, count(DISTINCT m.config_id) AS tried,
       count(DISTINCT CASE WHEN m.status = 'ok' THEN m.config_id END) AS ok
FROM measurements m JOIN problems p ON p.id = m.problem_id
GROUP BY p.id ORDER BY p.id
"""
WINNER = """
SELECT c.kernel_name, w.median_ms, w.cublas_ms FROM winners w
JOIN problems p ON p.id = w.problem_id JOIN configs c ON c.id = w.config_id
WHERE p.layout = ? AND p.m = ? AND p.n = ? AND p.k = ?
"""
TIME_OF = """
SELECT min(m.median_ms) FROM measurements m JOIN problems p ON p.id = m.problem_id
JOIN configs c ON c.id = m.config_id
WHERE p.layout = ? AND p.m = ? AND p.n = ? AND p.k = ? AND c.kernel_name = ? AND m.status = 'ok'
"""


def main(exhaustive_path, guided_path):
    exhaustive = sqlite3.connect(f"file:{exhaustive_path}?mode=ro", uri=True)
    guided = sqlite3.connect(f"file:{guided_path}?mode=ro", uri=True)
    tried_by_guided = {row[:4]: row[4] for row in guided.execute(PER_PROBLEM)}
    print("| problem | space (exhaustive tried) | guided tried | share | exhaustive winner | ms "
          "| guided winner | ms | best/guided, own runs | best/guided, same run |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    worst_ratio, worst_share, missing = 1.0, 0.0, 0
    for layout, m, n, k, space, _ in exhaustive.execute(PER_PROBLEM):
        key = (layout, m, n, k)
        best = exhaustive.execute(WINNER, key).fetchone()
        picked = guided.execute(WINNER, key).fetchone()
        if key not in tried_by_guided or not best or not picked:
            print(f"| {layout} {m}x{n}x{k} | {space} | missing in one database |")
            missing += 1
            continue
        same_run = exhaustive.execute(TIME_OF, key + (picked[0],)).fetchone()[0]
        share = tried_by_guided[key] / space
        own_ratio = best[1] / picked[1]
        same_ratio = best[1] / same_run if same_run else float("nan")
        worst_ratio = min(worst_ratio, same_ratio, own_ratio)
        worst_share = max(worst_share, share)
        print(f"| {layout} {m}x{n}x{k} | {space} | {tried_by_guided[key]} | {share:.0%} | {best[0]} | {best[1]:.4f} "
              f"| {picked[0]} | {picked[1]:.4f} | {own_ratio:.3f} | {same_ratio:.3f} |")
    print(f"\nworst ratio {worst_ratio:.3f} (target >= 0.97), largest share measured {worst_share:.0%} (target <= 25%)")
    return 1 if missing else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
