#!/usr/bin/env bash
# Runs the multi-instance fault-test rig (tests/cluster, issue 13 point 6): its own throwaway PostgreSQL
# (scripts/postgres-throwaway.sh), three `stockroom serve` instances on one schema and nginx in front of them, all on
# 127.0.0.1 with free ports. test_cross_instance checks a revoked token and the receipt numbers across the instances;
# test_faults_under_load runs 24 clients through nginx while instance 2 is killed and restarted and PostgreSQL is
# restarted, then checks that no client saw a 5xx but 503 (with Retry-After), that every acknowledged document is
# booked exactly once, that the books equal a replay of those documents into a fresh SQLite shop, and that every
# instance reconnected by itself. The tests stop everything they start and remove their folders, whatever happens;
# the logs are kept in $STOCKROOM_ARTIFACTS/cluster/.
#
# Installs Debian's nginx-light (or nginx) when there is no nginx, makes its own Python virtual environment
# (.venv-cluster) with a pinned pytest. Extra arguments go to pytest. STOCKROOM_BIN, when set, names the stockroom
# executable to test (no build then); STOCKROOM_CLUSTER_SECONDS sets how long the load runs (default 45).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "== installing Debian's nginx-light"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends nginx-light \
    || DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends nginx
fi

venv=.venv-cluster
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
STOCKROOM_BIN="$(realpath "$STOCKROOM_BIN")"  # the tests run from tests/cluster
export STOCKROOM_BIN
export STOCKROOM_ARTIFACTS="${STOCKROOM_ARTIFACTS:-$PWD/test-artifacts}"
mkdir -p "$STOCKROOM_ARTIFACTS"
cd tests/cluster
# -s: the rig prints its figures (requests, documents, retries, 503s, faults, phases).
"../../$venv/bin/pytest" -q -s -p no:cacheprovider -rfE --tb=short --junitxml="$STOCKROOM_ARTIFACTS/cluster-junit.xml" "$@"
