#!/usr/bin/env bash
# Seeded soak of the barcode image loaders and decoder (issue 11, point 6).
#
#   scripts/barcode-soak.sh [--minutes N] [--seed S] [--asan | --debug] [--corpus DIR] [--out DIR]
#
# Builds the barcode-soak executable (release; with --asan, release with AddressSanitizer in .build/asan; with
# --debug, the debug build scripts/test.sh already made, as it uses it) and runs it for N
# minutes (default 1; a fresh random seed unless --seed). Every input is rebuilt from the run seed and its index
# alone: mutated PNG/JPEG files (drawn here, and from the corpus in ../shared/barcode, read at run time) through
# ImageLoader and ImageSanitizer, and pictures (degenerate sizes, noise, textures, stripes, module grids, mutated real symbols) through the reader
# with every format. A crash or a hang of the child process is caught: its input is saved under --out (default: a
# new temporary directory) with its seed, and the run goes on after it. Prints inputs per kind, inputs per second
# and the slowest input (also saved); exits non-zero on any crash, hang or failed check (a decoded text that breaks
# its format's rules, a sanitised file that decodes differently, a peak resident size above the bound).
#
# Reproduce one input: .build/release/barcode-soak --replay FILE   or   --input-seed SEED --corpus DIR
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=1
seed=""
asan=0
debug=0
corpus=""
out=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --asan) asan=1; shift ;;
    --debug) debug=1; shift ;;
    --corpus) corpus="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --hang-seconds|--max-rss-mb|--only) extra+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
[ -n "$seed" ] || seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
[ -n "$out" ] || out=$(mktemp -d -t barcode-soak.XXXXXX)
if [ -z "$corpus" ] && [ -d ../shared/barcode ]; then corpus=../shared/barcode; fi
corpus_args=()
[ -n "$corpus" ] && corpus_args=(--corpus "$corpus")

if [ "$asan" = 1 ]; then
  echo "== building barcode-soak (release, AddressSanitizer, .build/asan)"
  swift build -c release --product barcode-soak --scratch-path .build/asan \
    -Xswiftc -sanitize=address -Xcc -fsanitize=address >/dev/null
  binary=.build/asan/release/barcode-soak
  # ASan's shadow memory counts in the resident size: a higher bound than the plain build's 1 GB.
  extra=(--max-rss-mb 4096 "${extra[@]}")
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:allocator_may_return_null=1}"
  # Swift's crash backtracer reads the dead process's memory and trips ASan; replay a saved input in the release
  # build for a Swift backtrace.
  export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
elif [ "$debug" = 1 ]; then
  # Not rebuilt when present: scripts/test.sh built it with coverage, and a plain `swift build` here would only
  # flip the flags back.
  binary=.build/debug/barcode-soak
  [ -x "$binary" ] || swift build --product barcode-soak >/dev/null
else
  echo "== building barcode-soak (release)"
  swift build -c release --product barcode-soak >/dev/null
  binary=.build/release/barcode-soak
fi

echo "== soak: $minutes min, seed $seed, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), out $out"
exec "$binary" --minutes "$minutes" --seed "$seed" --out "$out" "${corpus_args[@]}" "${extra[@]}"
