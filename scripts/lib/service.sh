# shellcheck shell=bash
# Shared by the scripts that run a test server on loopback (ferretdb.sh, kafka.sh). The caller
# defines PORT, PIDFILE, TEMPFILE, say() and running() (whether the pid file names its server).

# Stops the server in PIDFILE: TERM, up to $1 tenths of a second to exit, then KILL; removes its
# temporary data directory and the pid files. An `after_stop` function, if the caller defines one,
# runs before that removal (ferretdb.sh stops its PostgreSQL there).
stop_service() {
  local wait_tenths="$1" pid
  if ! running; then
    say "not running on port $PORT"
  else
    pid="$(cat "$PIDFILE")"
    kill "$pid"
    for _ in $(seq "$wait_tenths"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fi
    say "stopped (pid $pid)"
  fi
  if declare -F after_stop >/dev/null; then after_stop; fi
  if [[ -f "$TEMPFILE" ]]; then rm -rf "$(cat "$TEMPFILE")"; fi
  rm -f "$PIDFILE" "$TEMPFILE"
}
