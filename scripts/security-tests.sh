#!/usr/bin/env bash
# Runs the attack-replay tests (tests/security): every finding of the security review (issue 9) replayed against a
# real `stockroom serve` on 127.0.0.1 (HTTP, and HTTPS for the TLS ones) with a fresh data folder, asserting the
# refusal and that the shop's data hashes the same before and after. The tests start and stop the servers; they use
# loopback addresses 127.0.0.0/8 as distinct clients (Linux answers on the whole range).
#
# Makes its own Python virtual environment (.venv-security) with a pinned pytest; requests go through the standard
# library (http.client, raw sockets) so no path is normalised on the way. Extra arguments go to pytest.
# STOCKROOM_BIN, when set, names the stockroom executable to test (no build then).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-security
if [ ! -x "$venv/bin/pytest" ] || ! "$venv/bin/pytest" --version 2>&1 | grep -q "pytest 8.3.5"; then
  echo "== making $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet pytest==8.3.5
fi

scratch=(--scratch-path "${SCRATCH_PATH:-.build}")
if [ -z "${STOCKROOM_BIN:-}" ]; then
  swift build "${scratch[@]}" --product stockroom
  export STOCKROOM_BIN="$(swift build "${scratch[@]}" --show-bin-path)/stockroom"
fi
STOCKROOM_BIN="$(realpath "$STOCKROOM_BIN")"  # the tests run from tests/security
export STOCKROOM_BIN
export STOCKROOM_ARTIFACTS="${STOCKROOM_ARTIFACTS:-$PWD/test-artifacts}"
unset STOCKROOM_WEB_DIR  # test the files the server ships
mkdir -p "$STOCKROOM_ARTIFACTS"
cd tests/security
"../../$venv/bin/pytest" -q -p no:cacheprovider -rfE --junitxml="$STOCKROOM_ARTIFACTS/security-junit.xml" "$@"
