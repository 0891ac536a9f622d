#!/usr/bin/env python3
"""compare.py SCAN_A SCAN_B DIR...: every *.png under the DIRs read by two batch scanners (scripts/barcode-compare.sh)."""
import os
import subprocess
import sys


def read_all(scanner, paths):
    answer = subprocess.run([scanner], input="".join(p + "\n" for p in paths), capture_output=True, text=True, check=True)
    reads, current, times = [], [], []
    for line in answer.stdout.splitlines():
        if line.startswith("END\t"):
            reads.append(current)
            current = []
            times.append(float(line.split("\t")[1]))
        else:
            current.append(line.split("\t", 1)[1] if "\t" in line else line)
    return reads, times


def main():
    scanner_a, scanner_b, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    paths = sorted(
        os.path.join(root, f) for d in dirs for root, _, files in os.walk(d) for f in files if f.endswith(".png")
    )
    if not paths:
        sys.exit("no *.png under " + " ".join(dirs))
    reads_a, times_a = read_all(scanner_a, paths)
    reads_b, times_b = read_all(scanner_b, paths)
    totals = {"A": [0, 0], "B": [0, 0]}
    for path, a, b in zip(paths, reads_a, reads_b):
        with open(path[:-4] + ".txt", encoding="utf-8") as f:
            expected = f.read()
        for key, reads in (("A", a), ("B", b)):
            totals[key][0] += expected != "" and expected in reads
            totals[key][1] += sum(1 for t in reads if t != expected)
        if sorted(a) != sorted(b):
            print(f"differs  {path}  printed {expected!r}  A {a}  B {b}")
        elif any(t != expected for t in b):
            print(f"wrong    {path}  printed {expected!r}  both {b}")
    for key, times in (("A", times_a), ("B", times_b)):
        ok, wrong = totals[key]
        print(f"{key}: {len(paths)} images, {ok} read right, {wrong} wrong codes, {sum(times) / len(times):.2f} ms mean decode")


if __name__ == "__main__":
    main()
