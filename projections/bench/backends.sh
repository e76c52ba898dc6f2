#!/usr/bin/env bash
# The projection benchmark (projections.bench.ts) on every read-store setup, in one run, one JSON
# line each: embedded SQLite; FerretDB on SQLite, 8 statements per command and bulk writes;
# FerretDB on PostgreSQL, the same two. Each FerretDB is started for it (scripts/ferretdb.sh on
# FERRETDB_PORT, default 27214) and stopped after; the lines name the server and give its CPU
# (FerretDB's, and PostgreSQL's with its backends) beside the benchmark's own.
#
#   bash projections/bench/backends.sh [--events 20000 --rate 20 --seconds 10]
#
# Each FerretDB setup gets BENCH_TIMEOUT_S (default 300) seconds; one that runs out prints a line
# with `"timedOut": true`. BENCH_PPROF_DIR: also save a 20-second CPU profile of FerretDB from the start of each rebuild
# (`go tool pprof -top FILE` reads it), and its /debug/metrics after each run.
set -euo pipefail
cd "$(dirname "$0")/../.."
export FERRETDB_PORT="${FERRETDB_PORT:-27214}"
export FERRETDB_POSTGRESQL_PORT="${FERRETDB_POSTGRESQL_PORT:-$((FERRETDB_PORT - 1000))}"
export FERRETDB_DEBUG_ADDR="127.0.0.1:$((FERRETDB_PORT + 1))"
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--events 20000 --rate 20 --seconds 10)
CACHE="${AUCTION_CACHE_DIR:-$HOME/.cache/auction-marketplace}/ferretdb-v1.24.0"

bench() { npx tsx projections/bench/projections.bench.ts "${args[@]}"; }

# $1: label; $2: statements per command (blank: bulk); runs the benchmark on the FerretDB started.
on_ferretdb() {
  local label="$1" statements="$2" pids pid
  pid="$(cat "$CACHE/run/ferretdb-$FERRETDB_PORT.pid")"
  pids="ferretdb:$pid"
  local pgdata="$CACHE/run/ferretdb-$FERRETDB_PORT.postgresql"
  if [[ -f "$pgdata" ]]; then pids+=",postgresql:$(head -n 1 "$(cat "$pgdata")/postmaster.pid")"; fi
  if [[ -n "${BENCH_PPROF_DIR:-}" ]]; then
    mkdir -p "$BENCH_PPROF_DIR"
    # The history is built first (a few seconds), then the rebuild starts.
    (sleep 3 && curl -s -o "$BENCH_PPROF_DIR/$label-${statements:-bulk}.pprof" \
      "http://$FERRETDB_DEBUG_ADDR/debug/pprof/profile?seconds=20") &
  fi
  local code=0
  BENCH_SERVER="$label" BENCH_SERVER_PIDS="$pids" MONGODB_STATEMENTS_PER_COMMAND="$statements" \
    MONGODB_URL="mongodb://127.0.0.1:$FERRETDB_PORT/?maxPoolSize=10" \
    timeout "${BENCH_TIMEOUT_S:-300}" npx tsx projections/bench/projections.bench.ts "${args[@]}" ||
    code=$?
  if ((code != 0)); then
    echo "{\"bench\":\"projections\",\"store\":\"mongodb\",\"server\":\"$label\",\"statementsPerCommand\":\"${statements:-bulk}\",\"failed\":true,\"timedOut\":$([[ $code == 124 ]] && echo true || echo false),\"seconds\":${BENCH_TIMEOUT_S:-300}}"
  fi
  wait
  if [[ -n "${BENCH_PPROF_DIR:-}" ]]; then
    curl -s "http://$FERRETDB_DEBUG_ADDR/debug/metrics" \
      >"$BENCH_PPROF_DIR/$label-${statements:-bulk}.metrics" || true
  fi
}

(unset MONGODB_URL MONGODB_STATEMENTS_PER_COMMAND; bench)
for backend in postgresql sqlite; do
  FERRETDB_BACKEND="$backend" scripts/ferretdb.sh start >/dev/null
  trap 'scripts/ferretdb.sh stop >/dev/null 2>&1' EXIT
  on_ferretdb "ferretdb-$backend" 8
  # Bulk last: on SQLite it may leave the server without connections.
  on_ferretdb "ferretdb-$backend" ""
  scripts/ferretdb.sh stop >/dev/null 2>&1
  trap - EXIT
done
