#!/usr/bin/env bash
# FerretDB v1 (the MongoDB wire protocol over its own SQLite backend): the MongoDB server the
# read store's contract runs against where there is no Docker.
#
#   scripts/ferretdb.sh install   build it once into the cache (needs Go; the module proxy)
#   scripts/ferretdb.sh start     start it on 127.0.0.1:${FERRETDB_PORT:-27017}; the last line of
#                                 stdout is MONGODB_URL=mongodb://127.0.0.1:<port>/?maxPoolSize=10
#   scripts/ferretdb.sh stop      stop the one started on that port
#
#   eval "$(scripts/ferretdb.sh start)" && MONGODB_URL="$MONGODB_URL" npx vitest run mongo
#
# AUCTION_CACHE_DIR (default ~/.cache/auction-marketplace) holds the binary and the pid files;
# FERRETDB_DATA_DIR keeps the data (default: a fresh temporary directory, removed by stop).
set -euo pipefail

VERSION=v1.24.0
MODULE=github.com/FerretDB/FerretDB
CACHE="${AUCTION_CACHE_DIR:-$HOME/.cache/auction-marketplace}/ferretdb-$VERSION"
BIN="$CACHE/ferretdb"
PORT="${FERRETDB_PORT:-27017}"
PIDFILE="$CACHE/run/ferretdb-$PORT.pid"
TEMPFILE="$CACHE/run/ferretdb-$PORT.tempdir"
START_TIMEOUT_S=30

say() { echo "ferretdb: $*" >&2; }
fail() { say "$*"; exit 1; }
# shellcheck source=scripts/lib/service.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/service.sh"
accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }
# The process in the pid file is alive and still FerretDB (a pid may be reused).
running() { [[ -f "$PIDFILE" && "$(ps -o comm= -p "$(cat "$PIDFILE")" 2>/dev/null)" == ferretdb ]]; }

install() {
  if [[ -x "$BIN" ]]; then return; fi
  command -v go >/dev/null || fail "Go is needed to build FerretDB $VERSION (https://go.dev/dl/), and it is not on PATH"
  say "building FerretDB $VERSION into $BIN (a minute or two)"
  # `go install $MODULE@$VERSION` needs the module's version list, which the proxy refuses.
  local dir work
  dir="$(go mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -d "$dir" ]] || fail "go mod download $MODULE@$VERSION gave no source directory"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"; trap - RETURN' RETURN
  cp -R "$dir/." "$work"
  chmod -R u+w "$work"
  # The binary reads its version from this file and panics at start without it.
  echo "$VERSION" >"$work/build/version/version.txt"
  mkdir -p "$CACHE"
  (cd "$work" && go build -o "$BIN.partial" ./cmd/ferretdb)
  mv "$BIN.partial" "$BIN"
}

# FerretDB keeps at most 100 SQLite connections per database; a write in a transaction holds two,
# and each statement of a write command holds one until the command ends (the read store sends 8
# at most). When they run out, the database stops answering until its clients disconnect. Clients
# given this URL keep to 10 connections each, so three app nodes and a test stay well within it.
url() { echo "MONGODB_URL=mongodb://127.0.0.1:$PORT/?maxPoolSize=10"; }

start() {
  if running && accepts; then
    say "already running on port $PORT (pid $(cat "$PIDFILE"))"
    url
    return
  fi
  accepts && fail "port $PORT is taken by another process; set FERRETDB_PORT"
  install
  local data="${FERRETDB_DATA_DIR:-}"
  mkdir -p "$CACHE/run"
  rm -f "$TEMPFILE"
  if [[ -z "$data" ]]; then
    data="$(mktemp -d "${TMPDIR:-/tmp}/ferretdb-$PORT.XXXXXX")"
    echo "$data" >"$TEMPFILE"
  fi
  mkdir -p "$data/sqlite" "$data/state"
  local log="$data/ferretdb.log"
  nohup "$BIN" --handler=sqlite --sqlite-url="file:$data/sqlite/" --state-dir="$data/state" \
    --listen-addr="127.0.0.1:$PORT" --debug-addr=127.0.0.1:0 --telemetry=disable \
    --log-level=warn >>"$log" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
  local waited=0
  until accepts; do
    if ! running || ((waited >= START_TIMEOUT_S * 10)); then
      if running; then say "no connection on port $PORT after ${START_TIMEOUT_S}s"; else say "exited at start"; fi
      say "its log ($log):"
      cat "$log" >&2
      stop >/dev/null 2>&1 || true
      exit 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  say "started on port $PORT (pid $(cat "$PIDFILE"), data in $data)"
  url
}

stop() { stop_service 100; }

case "${1:-}" in
  install) install && say "$BIN" ;;
  start) start ;;
  stop) stop ;;
  *) fail "usage: $0 install|start|stop (FERRETDB_PORT, FERRETDB_DATA_DIR, AUCTION_CACHE_DIR)" ;;
esac
