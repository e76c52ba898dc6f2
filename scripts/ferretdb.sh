#!/usr/bin/env bash
# FerretDB v1 (the MongoDB wire protocol over SQLite or PostgreSQL): the MongoDB server the
# MongoDB adapters and the product run against where there is no Docker.
#
#   scripts/ferretdb.sh install   build it once into the cache (needs Go; the module proxy), and
#                                 with the PostgreSQL backend install Debian's postgresql if missing
#   scripts/ferretdb.sh start     start it on 127.0.0.1:${FERRETDB_PORT:-27017}; the last line of
#                                 stdout is MONGODB_URL=mongodb://127.0.0.1:<port>/?maxPoolSize=10
#   scripts/ferretdb.sh stop      stop the one started on that port (and its PostgreSQL)
#
#   eval "$(scripts/ferretdb.sh start)" && MONGODB_URL="$MONGODB_URL" npx vitest run mongo
#
# FERRETDB_BACKEND chooses where FerretDB keeps the data:
#   sqlite (default)  FerretDB's own SQLite files. Batches of more than a few statements per write
#                     command exhaust its SQLite connections: clients set
#                     MONGODB_STATEMENTS_PER_COMMAND=8 (scripts/with-mongodb.sh and .ci/run do).
#   postgresql        a PostgreSQL of its own (Debian's, /usr/lib/postgresql/*/bin), initialised in
#                     the data directory, listening on 127.0.0.1:${FERRETDB_POSTGRESQL_PORT:-<port
#                     - 1000>} only, run as the system user `postgres` when started as root
#                     (PostgreSQL refuses to run as root), trusting local connections.
#
# AUCTION_CACHE_DIR (default ~/.cache/auction-marketplace) holds the binary and the pid files;
# FERRETDB_DATA_DIR keeps the data (default: a fresh temporary directory, removed by stop);
# FERRETDB_DEBUG_ADDR serves its metrics and pprof (default: a free loopback port). As
# root with the PostgreSQL backend, the user `postgres` must be able to reach FERRETDB_DATA_DIR.
set -euo pipefail

VERSION=v1.24.0
MODULE=github.com/FerretDB/FerretDB
CACHE="${AUCTION_CACHE_DIR:-$HOME/.cache/auction-marketplace}/ferretdb-$VERSION"
BIN="$CACHE/ferretdb"
PORT="${FERRETDB_PORT:-27017}"
BACKEND="${FERRETDB_BACKEND:-sqlite}"
PIDFILE="$CACHE/run/ferretdb-$PORT.pid"
TEMPFILE="$CACHE/run/ferretdb-$PORT.tempdir"
# The PostgreSQL cluster started for this port, if any: its data directory.
PGFILE="$CACHE/run/ferretdb-$PORT.postgresql"
PG_PORT="${FERRETDB_POSTGRESQL_PORT:-$((PORT - 1000))}"
PG_OS_USER=postgres
START_TIMEOUT_S=30

say() { echo "ferretdb: $*" >&2; }
fail() { say "$*"; exit 1; }
# shellcheck source=scripts/lib/service.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/service.sh"
accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }
# The process in the pid file is alive and still FerretDB (a pid may be reused).
running() { [[ -f "$PIDFILE" && "$(ps -o comm= -p "$(cat "$PIDFILE")" 2>/dev/null)" == ferretdb ]]; }

install() {
  if [[ "$BACKEND" == postgresql ]]; then install_postgresql; fi
  if [[ -x "$BIN" ]]; then return; fi
  command -v go >/dev/null || fail "Go is needed to build FerretDB $VERSION (https://go.dev/dl/), and it is not on PATH"
  say "building FerretDB $VERSION into $BIN (about 6.5 minutes on 2 cores)"
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

# --- PostgreSQL backend ---

pg_bin() { find /usr/lib/postgresql -maxdepth 3 -path '*/bin/initdb' 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname; }

install_postgresql() {
  if [[ -n "$(pg_bin)" ]]; then return; fi
  [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null ||
    fail "PostgreSQL is needed for FERRETDB_BACKEND=postgresql: apt-get install postgresql"
  say "installing Debian's postgresql"
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2 ||
    { apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2; }
  [[ -n "$(pg_bin)" ]] || fail "postgresql installed, but no /usr/lib/postgresql/*/bin/initdb"
}

# PostgreSQL refuses to run as root: as root, its commands run as the system user `postgres`.
as_pg() {
  if [[ $EUID -eq 0 ]]; then runuser -u "$PG_OS_USER" -- "$@"; else "$@"; fi
}

# Initialises a cluster in $1 unless there is one, starts it on 127.0.0.1:$PG_PORT, and creates the
# database `ferretdb`. Sockets: TCP on loopback only, no Unix socket (its default directory needs
# root to create).
start_postgresql() {
  local pgdata="$1" bin
  bin="$(pg_bin)"
  if (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; then
    fail "port $PG_PORT (PostgreSQL) is taken by another process; set FERRETDB_POSTGRESQL_PORT"
  fi
  if [[ $EUID -eq 0 ]]; then
    mkdir -p "$pgdata"
    chown "$PG_OS_USER:" "$pgdata"
    as_pg test -w "$pgdata" ||
      fail "the user $PG_OS_USER cannot write $pgdata (PostgreSQL does not run as root): choose a FERRETDB_DATA_DIR it can reach"
  fi
  if [[ ! -f "$pgdata/PG_VERSION" ]]; then
    as_pg "$bin/initdb" -D "$pgdata" -U postgres --auth=trust --encoding=UTF8 --no-instructions \
      >"$pgdata.initdb.log" 2>&1 || { cat "$pgdata.initdb.log" >&2; fail "initdb failed in $pgdata"; }
  fi
  echo "$pgdata" >"$PGFILE"
  as_pg "$bin/pg_ctl" -D "$pgdata" -l "$pgdata/postgresql.log" -w -t "$START_TIMEOUT_S" \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=''" start >&2 || {
    say "PostgreSQL did not start; its log ($pgdata/postgresql.log):"
    cat "$pgdata/postgresql.log" >&2
    rm -f "$PGFILE"
    exit 1
  }
  if [[ "$(as_pg "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -XAtc \
    "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'")" != 1 ]]; then
    as_pg "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres ferretdb
  fi
  say "PostgreSQL on 127.0.0.1:$PG_PORT (data in $pgdata)"
}

stop_postgresql() {
  [[ -f "$PGFILE" ]] || return 0
  local pgdata
  pgdata="$(cat "$PGFILE")"
  if [[ -f "$pgdata/postmaster.pid" ]]; then
    as_pg "$(pg_bin)/pg_ctl" -D "$pgdata" -m fast -w stop >&2 || say "PostgreSQL in $pgdata did not stop"
  fi
  rm -f "$PGFILE"
}

# Called by stop_service between stopping FerretDB and removing its temporary directory.
after_stop() { stop_postgresql; }

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
  mkdir -p "$data/state"
  local backend_flags
  case "$BACKEND" in
    sqlite)
      mkdir -p "$data/sqlite"
      backend_flags=(--handler=sqlite --sqlite-url="file:$data/sqlite/")
      ;;
    postgresql)
      # The user postgres passes through the temporary directory to its cluster.
      [[ -z "${FERRETDB_DATA_DIR:-}" ]] && chmod 711 "$data"
      start_postgresql "$data/postgresql"
      backend_flags=(--handler=postgresql
        --postgresql-url="postgres://postgres@127.0.0.1:$PG_PORT/ferretdb")
      ;;
    *) fail "FERRETDB_BACKEND must be sqlite or postgresql, not $BACKEND" ;;
  esac
  local log="$data/ferretdb.log"
  nohup "$BIN" "${backend_flags[@]}" --state-dir="$data/state" \
    --listen-addr="127.0.0.1:$PORT" --debug-addr="${FERRETDB_DEBUG_ADDR:-127.0.0.1:0}" --telemetry=disable \
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
  say "started on port $PORT with the $BACKEND backend (pid $(cat "$PIDFILE"), data in $data)"
  url
}

stop() { stop_service 100; }

case "${1:-}" in
  install) install && say "$BIN" ;;
  start) start ;;
  stop) stop ;;
  *) fail "usage: $0 install|start|stop (FERRETDB_PORT, FERRETDB_BACKEND, FERRETDB_DATA_DIR, FERRETDB_POSTGRESQL_PORT, AUCTION_CACHE_DIR)" ;;
esac
