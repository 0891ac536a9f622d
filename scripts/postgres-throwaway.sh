#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the tests: no docker, no mock.
#
#   eval "$(scripts/postgres-throwaway.sh start)"   # exports STOCKROOM_TEST_POSTGRES and STOCKROOM_PG_FOLDER
#   scripts/postgres-throwaway.sh stop "$STOCKROOM_PG_FOLDER"
#
# `start` installs Debian's postgresql package when its binaries are missing, makes the `postgres` system user when
# there is none (initdb and postgres refuse to run as root), runs initdb into a new temporary folder owned by that
# user, starts the server on a free port of 127.0.0.1 only (trust authentication for the loopback, fsync off: this
# server holds nothing worth keeping; STOCKROOM_PG_DURABLE=1 keeps every flush, for benchmarks), creates the database `stockroom_test` with pg_trgm, and prints the two export
# lines. `stop` stops that server and removes its folder. Everything it says goes to stderr.
set -euo pipefail

bin=/usr/lib/postgresql/15/bin
say() { echo "postgres-throwaway: $*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"
  elif [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"
  else sudo -u postgres "$@"; fi
}

start() {
  if [ ! -x "$bin/initdb" ]; then
    say "installing Debian's postgresql-15"
    as_root apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends postgresql-15 postgresql-contrib-15 >&2 \
      || DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends postgresql-15 >&2
  fi
  if ! id postgres >/dev/null 2>&1; then
    say "creating the postgres system user"
    as_root useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
  fi
  local folder port
  folder="$(mktemp -d -t stockroom-pg-XXXXXX)"
  chmod 755 "$folder"
  as_root chown postgres "$folder"
  as_postgres "$bin/initdb" -D "$folder/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  # STOCKROOM_PG_DURABLE=1 (benchmarks): every commit flushed to disk, as a shop's server would; tests skip the flushes.
  local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  [ "${STOCKROOM_PG_DURABLE:-}" = 1 ] && durability="-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
  # STOCKROOM_PG_OPTIONS: more server settings (-c name=value …), e.g. for scripts/bench-postgres.py --profile.
  durability="$durability ${STOCKROOM_PG_OPTIONS:-}"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  as_postgres "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$folder $durability -c max_connections=400" >/dev/null
  as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c "CREATE DATABASE stockroom_test" >/dev/null
  as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d stockroom_test -q -c "CREATE EXTENSION IF NOT EXISTS pg_trgm" >/dev/null
  say "PostgreSQL 15 on 127.0.0.1:$port (folder $folder)"
  echo "export STOCKROOM_TEST_POSTGRES=postgres://postgres@127.0.0.1:$port/stockroom_test"
  echo "export STOCKROOM_PG_FOLDER=$folder"
}

stop() {
  local folder="${1:?the folder start printed}"
  case "$folder" in */stockroom-pg-*) ;; *) say "refusing to remove $folder"; exit 2 ;; esac
  [ -d "$folder/data" ] && as_postgres "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
  as_root rm -rf "$folder"
  say "stopped and removed $folder"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start | stop FOLDER" >&2; exit 2 ;;
esac
