#!/usr/bin/env bash
# Runs a command with MONGODB_URL set: the server it already names, or a FerretDB started for the
# command on 127.0.0.1:${FERRETDB_PORT:-27117} and stopped after it (scripts/ferretdb.sh, on
# FERRETDB_BACKEND: sqlite by default, or postgresql). On FerretDB's SQLite backend the read models
# write 8 statements per command (MONGODB_STATEMENTS_PER_COMMAND, unless set, even to blank).
#
#   scripts/with-mongodb.sh npx vitest run mongo
#   FERRETDB_BACKEND=postgresql scripts/with-mongodb.sh npx vitest run mongo
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${MONGODB_URL:-}" ]]; then
  export FERRETDB_PORT="${FERRETDB_PORT:-27117}"
  url="$(scripts/ferretdb.sh start)"
  trap 'scripts/ferretdb.sh stop' EXIT
  export "${url?}"
  if [[ "${FERRETDB_BACKEND:-sqlite}" == sqlite ]]; then
    export MONGODB_STATEMENTS_PER_COMMAND="${MONGODB_STATEMENTS_PER_COMMAND-8}"
  fi
fi
export MONGODB_URL
"$@"
