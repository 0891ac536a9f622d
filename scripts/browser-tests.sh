#!/usr/bin/env bash
# Runs the web app's browser tests (tests/browser): Python + Selenium driving Debian's headless chromium through
# chromium-driver, each test module against its own `stockroom serve` on 127.0.0.1 with a fresh data folder (the
# tests start and stop the servers). Screenshots are kept in test-artifacts/screenshots/.
#
# Needs the Debian packages chromium, chromium-driver and fonts-liberation (scripts/test.sh installs them) and
# makes its own Python virtual environment (.venv-browser) with pinned packages. Extra arguments go to pytest.
# STOCKROOM_BIN, when set, names the stockroom executable to test (no build then).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$tool" ] || { echo "missing $tool: apt-get install chromium chromium-driver fonts-liberation" >&2; exit 1; }
done
venv=.venv-browser
if [ ! -x "$venv/bin/pytest" ] || ! "$venv/bin/python" -c "import selenium, barcode, PIL" >/dev/null 2>&1; then
  echo "== making $venv"
  python3 -m venv "$venv"
  # selenium 4.52 wants a newer certifi than some registries serve; 4.51 is verified with Debian's chromium.
  "$venv/bin/pip" install --quiet selenium==4.51.0 pytest pillow python-barcode
fi

scratch=(--scratch-path "${SCRATCH_PATH:-.build}")
if [ -z "${STOCKROOM_BIN:-}" ]; then
  swift build "${scratch[@]}" --product stockroom
  STOCKROOM_BIN="$(swift build "${scratch[@]}" --show-bin-path)/stockroom"
fi
STOCKROOM_BIN="$(realpath "$STOCKROOM_BIN")"  # the tests run from tests/browser
export STOCKROOM_BIN
export STOCKROOM_ARTIFACTS="${STOCKROOM_ARTIFACTS:-$PWD/test-artifacts}"
unset STOCKROOM_WEB_DIR  # test the files the server ships
mkdir -p "$STOCKROOM_ARTIFACTS"
cd tests/browser
"../../$venv/bin/pytest" -q -p no:cacheprovider --junitxml="$STOCKROOM_ARTIFACTS/browser-junit.xml" "$@"
