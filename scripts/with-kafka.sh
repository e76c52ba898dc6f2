#!/usr/bin/env bash
# Runs a command with KAFKA_BROKERS set: the broker it already names, or one Kafka broker started
# for the command on 127.0.0.1:${KAFKA_PORT:-19092} and stopped after it (scripts/kafka.sh).
#
#   scripts/with-kafka.sh npx vitest run kafka
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${KAFKA_BROKERS:-}" ]]; then
  export KAFKA_PORT="${KAFKA_PORT:-19092}"
  brokers="$(scripts/kafka.sh start | tail -n 1)"
  trap 'scripts/kafka.sh stop' EXIT
  export "${brokers?}"
fi
export KAFKA_BROKERS
"$@"
