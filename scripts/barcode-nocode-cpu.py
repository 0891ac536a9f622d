#!/usr/bin/env python3
# CPU time per frame without a code (issue 11, point 5): the reader (`barcode-soak --replay`, the thread CPU time of
# one BarcodeReader.decode with every format) beside zxing-cpp (time.process_time around read_barcodes with eval.py's
# settings), same run, min of N repeats per frame. CPU time, not wall time, so other builds on the machine inflate
# the figures less (they still share caches and cores).
#
#   .venv-barcode/bin/python scripts/barcode-gen.py --sets 'negative-*' --size 640x480 --count 12 --out /tmp/neg640
#   swift build -c release --product barcode-soak
#   .venv-barcode/bin/python scripts/barcode-nocode-cpu.py /tmp/neg640 .build/release/barcode-soak 5
import sys, os, glob, subprocess, time, re, statistics, tempfile
import numpy as np
from PIL import Image
import zxingcpp
root, binary, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 5
sets = sorted(d for d in os.listdir(root) if d.startswith('negative-') and d != 'negative-cut')
pgmdir = tempfile.mkdtemp(prefix='nocode-pgm-')
rows = []
allr, allz = [], []
for s in sets:
    files = sorted(glob.glob(f'{root}/{s}/*.png'))
    pgms = []
    zt = []
    for f in files:
        im = Image.open(f).convert('L')
        p = f'{pgmdir}/{s}-{os.path.basename(f)[:-4]}.pgm'
        im.save(p)
        pgms.append(p)
        a = np.asarray(im)
        zxingcpp.read_barcodes(a, text_mode=zxingcpp.TextMode.Plain)
        best = 1e9
        for _ in range(repeat):
            t0 = time.process_time(); r = zxingcpp.read_barcodes(a, text_mode=zxingcpp.TextMode.Plain); best = min(best, time.process_time() - t0)
        zt.append(best * 1000)
        if r: print('zxing read', f, r)
    rt = {p: 1e9 for p in pgms}
    for _ in range(repeat):
        out = subprocess.run([binary] + sum([['--replay', p] for p in pgms], []), capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r'(.*\.pgm): .*?, ([0-9.]+) ms CPU, .*?, (\d+) barcodes', line)
            if m:
                rt[m.group(1)] = min(rt[m.group(1)], float(m.group(2)))
                if m.group(3) != '0': print('reader read', line)
    r = list(rt.values())
    allr += r; allz += zt
    rows.append((s, len(files), statistics.mean(zt), max(zt), statistics.mean(r), max(r), sum(1 for x in r if x <= 5)))
print(f"{'set':18} {'n':>3} {'zxing mean':>10} {'max':>6} {'reader mean':>11} {'max':>6} {'reader <=5ms':>12}")
for s, n, zm, zx, rm, rx, ok in rows:
    print(f"{s:18} {n:3} {zm:10.1f} {zx:6.1f} {rm:11.1f} {rx:6.1f} {ok:>9}/{n}")
print(f"{'all':18} {len(allr):3} {statistics.mean(allz):10.1f} {max(allz):6.1f} {statistics.mean(allr):11.1f} {max(allr):6.1f} {sum(1 for x in allr if x <= 5):>9}/{len(allr)}")
