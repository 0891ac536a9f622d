#!/usr/bin/env bash
# Runs every test of Stockroom on a fresh machine: installs what is missing, builds, tests, reports coverage.
set -euo pipefail
cd "$(dirname "$0")/.."

# System libraries: SQLite for the store, libpng and libjpeg for reading barcode images; Debian's chromium, its
# matching chromium-driver and fonts for the browser tests; poppler-utils (pdftotext) to read back the PDFs Chromium
# prints; zint for the barcode test images (scripts/barcode-gen.py).
packages=(libsqlite3-dev libpng-dev libjpeg62-turbo-dev zlib1g-dev chromium chromium-driver fonts-liberation fonts-noto-color-emoji poppler-utils zint)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Python for scripts/barcode-gen.py, which GeneratedCorpusTests runs to render its test images.
if ! .venv-barcode/bin/python -c 'import PIL, numpy, segno' >/dev/null 2>&1; then
  echo "== barcode generator venv (.venv-barcode: pillow, numpy, segno)"
  [ -x .venv-barcode/bin/python ] || python3 -m venv .venv-barcode
  .venv-barcode/bin/pip install -q pillow numpy segno
fi

# One build serves every step: the tests, the soak and the servers the scripts below start all run this
# coverage-instrumented debug build (a build without coverage, then `swift test --enable-code-coverage`, then the
# scripts' own `swift build` would compile the whole package three times).
echo "== building (debug, with coverage)"
swift build --build-tests --enable-code-coverage
export STOCKROOM_BIN="$(swift build --show-bin-path --enable-code-coverage)/stockroom"

# A throwaway PostgreSQL 15 (initdb into a temporary folder, a free port on 127.0.0.1) for the store's conformance
# suites on PostgreSQL (issue 13); stopped and removed at the end, whatever happens.
echo "== throwaway PostgreSQL 15"
profiles=""
tests_tmp=""
STOCKROOM_PG_FOLDER=""
cleanup() {
  [ -n "$STOCKROOM_PG_FOLDER" ] && ./scripts/postgres-throwaway.sh stop "$STOCKROOM_PG_FOLDER" || true
  [ -n "$profiles" ] && rm -rf "$profiles"
  [ -n "$tests_tmp" ] && rm -rf "$tests_tmp"
}
trap cleanup EXIT
eval "$(./scripts/postgres-throwaway.sh start)"
export STOCKROOM_REQUIRE_POSTGRES=1

echo "== swift test (with coverage; the store's ported conformance tests also on PostgreSQL)"
# The tests' shops, backups and renderings go to a temporary folder of the run's own (TMPDIR), removed at the end:
# a few hundred folders a run used to stay behind in /tmp.
tests_tmp="$(mktemp -d -t stockroom-swift-test-XXXXXX)"
TMPDIR="$tests_tmp" swift test --skip-build --enable-code-coverage

# The instrumented programs started from here on write their counters to LLVM_PROFILE_FILE (default.profraw in
# their working folder otherwise); one merged file in a temporary folder, removed at the end.
profiles="$(mktemp -d -t stockroom-profiles-XXXXXX)"
export LLVM_PROFILE_FILE="$profiles/%m.profraw"

echo "== barcode soak (30 s of scripts/barcode-soak.sh on the debug build just made, a fresh seed; the one-hour run is in BENCHMARKS.md)"
./scripts/barcode-soak.sh --debug --minutes 0.5

echo "== coverage"
python3 scripts/coverage.py "$(swift test --show-codecov-path)"

echo "== security tests (every finding of issue 9 replayed against a real stockroom serve over HTTP and HTTPS)"
./scripts/security-tests.sh

echo "== security tests again, each server's shop in a PostgreSQL schema of its own (--database)"
STOCKROOM_SECURITY_POSTGRES="$STOCKROOM_TEST_POSTGRES" STOCKROOM_ARTIFACTS="$PWD/test-artifacts/postgres" ./scripts/security-tests.sh

echo "== cluster rig (three instances on one PostgreSQL schema behind nginx, 24 clients for 30 s while an instance is killed and PostgreSQL restarted; its own PostgreSQL)"
STOCKROOM_CLUSTER_SECONDS=30 ./scripts/cluster-tests.sh

echo "== browser tests (Selenium + headless chromium against a real stockroom serve; screenshots in test-artifacts/)"
./scripts/browser-tests.sh

echo "== schemathesis (the OpenAPI document against a live server: no 5xx, no answer outside the document)"
./scripts/schemathesis.sh
