#!/usr/bin/env python3
"""Prints line coverage per module from `swift test --enable-code-coverage` and fails below the floor.

Usage: coverage.py CODECOV_JSON [--floor 85]
The floor applies to the modules whose correctness the books and the scanner rest on.
"""
import json
import sys
from collections import defaultdict

GUARDED = ["InventoryDomain", "InventoryStore", "InventoryPostgres", "BarcodeReader"]


def main() -> int:
    path = sys.argv[1]
    floor = float(sys.argv[sys.argv.index("--floor") + 1]) if "--floor" in sys.argv else 85.0
    with open(path) as handle:
        data = json.load(handle)
    totals = defaultdict(lambda: [0, 0])
    for entry in data["data"][0]["files"]:
        name = entry["filename"]
        if "/Sources/" not in name or "/.build" in name:
            continue
        module = name.split("/Sources/", 1)[1].split("/", 1)[0]
        lines = entry["summary"]["lines"]
        totals[module][0] += lines["covered"]
        totals[module][1] += lines["count"]
    failed = False
    print(f"{'module':<20} {'lines':>8} {'covered':>8} {'percent':>8}")
    for module in sorted(totals):
        covered, count = totals[module]
        percent = 100.0 * covered / count if count else 100.0
        mark = ""
        if module in GUARDED and percent < floor:
            mark = f"  below the {floor:.0f}% floor"
            failed = True
        print(f"{module:<20} {count:>8} {covered:>8} {percent:>7.1f}%{mark}")
    guarded = [totals[m] for m in GUARDED if m in totals]
    if guarded:
        covered = sum(c for c, _ in guarded)
        count = sum(n for _, n in guarded)
        print(f"{'guarded modules':<20} {count:>8} {covered:>8} {100.0 * covered / count:>7.1f}%")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
