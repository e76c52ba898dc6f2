#!/usr/bin/env bash
# Apache Kafka, one node in KRaft mode (broker and controller in one process): the Kafka the
# tests run against where there is no Docker. It comes from Maven Central, the org.apache.kafka
# jars and their dependencies (scripts/kafka/pom.xml), not from a distribution tarball.
#
#   scripts/kafka.sh install   resolve the jars once into the cache (needs Java 17+ and Maven)
#   scripts/kafka.sh start     start it on 127.0.0.1:${KAFKA_PORT:-9092}, its controller on the
#                              next port; the last line of stdout is KAFKA_BROKERS=127.0.0.1:<port>
#   scripts/kafka.sh stop      stop the one started on that port
#
#   eval "$(scripts/kafka.sh start)" && KAFKA_BROKERS="$KAFKA_BROKERS" npx vitest run kafka
#
# AUCTION_CACHE_DIR (default ~/.cache/auction-marketplace) holds the jars and the pid files;
# KAFKA_DATA_DIR keeps the data (default: a fresh temporary directory, removed by stop).
# Topics are not created on first use (auto.create.topics.enable=false): a test creates its own,
# with the partitions it means to have.
set -euo pipefail

VERSION=4.3.1
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kafka"
CACHE="${AUCTION_CACHE_DIR:-$HOME/.cache/auction-marketplace}/kafka-$VERSION"
LIBS="$CACHE/libs"
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT=$((PORT + 1))
PIDFILE="$CACHE/run/kafka-$PORT.pid"
TEMPFILE="$CACHE/run/kafka-$PORT.tempdir"
START_TIMEOUT_S=60
# Java for Kafka's main classes; the broker's heap is small, as the tests run beside it.
JAVA=(java -Djava.awt.headless=true "-Dlog4j2.configurationFile=$HERE/log4j2.properties" -cp "$LIBS/*")
TOOL=("${JAVA[@]}" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dkafka.log.level=warn)

say() { echo "kafka: $*" >&2; }
fail() { say "$*"; exit 1; }
# shellcheck source=scripts/lib/service.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/service.sh"
accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# The process in the pid file is alive and still the broker started for this port (a pid may be reused).
running() { [[ -f "$PIDFILE" ]] && ps -ww -o args= -p "$(cat "$PIDFILE")" 2>/dev/null | grep -q -- "-Dauction.kafka.port=$PORT "; }
# The broker answers a client (the port accepts before the controller has let the broker in).
answers() {
  local left=$((START_TIMEOUT_S - SECONDS))
  accepts "$PORT" && timeout "$((left > 1 ? left : 1))" "${TOOL[@]}" org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "127.0.0.1:$PORT" --list >/dev/null
}

install() {
  command -v java >/dev/null || fail "Java 17 or later is needed to run Kafka $VERSION, and it is not on PATH (Debian: apt-get install openjdk-17-jre-headless)"
  local major
  major="$(java -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')"
  ((${major:-0} >= 17)) || fail "Kafka $VERSION needs Java 17 or later; java on PATH is version ${major:-unknown}"
  if [[ -d "$LIBS" ]]; then return; fi
  command -v mvn >/dev/null || fail "Maven is needed to install Kafka $VERSION from Maven Central, and it is not on PATH (Debian: apt-get install maven)"
  say "resolving Kafka $VERSION and its dependencies from Maven Central into $LIBS"
  rm -rf "$LIBS.partial"
  local out
  out="$(mvn -q -B -f "$HERE/pom.xml" -Dkafka.version="$VERSION" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$LIBS.partial" 2>&1)" || { echo "$out" >&2; fail "mvn failed"; }
  mv "$LIBS.partial" "$LIBS"
}

start() {
  if running; then
    accepts "$PORT" || fail "the broker started on port $PORT (pid $(cat "$PIDFILE")) does not accept connections (yet); wait for it, or stop it"
    say "already running on port $PORT (pid $(cat "$PIDFILE"))"
    echo "KAFKA_BROKERS=127.0.0.1:$PORT"
    return
  fi
  local port
  for port in "$PORT" "$CONTROLLER_PORT"; do
    if accepts "$port"; then fail "port $port is taken by another process; set KAFKA_PORT (Kafka uses it and the next one)"; fi
  done
  install
  local data="${KAFKA_DATA_DIR:-}"
  mkdir -p "$CACHE/run"
  if [[ -f "$TEMPFILE" ]]; then rm -rf "$(cat "$TEMPFILE")" "$TEMPFILE"; fi
  if [[ -z "$data" ]]; then
    data="$(mktemp -d "${TMPDIR:-/tmp}/kafka-$PORT.XXXXXX")"
    echo "$data" >"$TEMPFILE"
  fi
  local config="$data/server.properties" log="$data/kafka.log"
  # Smaller than the defaults for tests: 50 partitions of __consumer_offsets (or of
  # __transaction_state) cost a second at the first group (or idempotent producer), and the log
  # cleaner's 128 MiB buffer is most of an idle broker's memory.
  cat >"$config" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data/logs
auto.create.topics.enable=false
offsets.topic.num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.cleaner.dedupe.buffer.size=16777216
EOF
  # A new cluster with a random id; a KAFKA_DATA_DIR formatted before keeps its own.
  if [[ ! -f "$data/logs/meta.properties" ]]; then
    local out
    # Base64url of 16 random bytes. One that starts with '-' would be read as an option by the
    # tool's argument parser ("expected one argument"), so draw again (1 time in 64).
    local id
    id="-"
    while [[ $id == -* ]]; do
      id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c 1-22)"
    done
    out="$("${TOOL[@]}" kafka.tools.StorageTool format -c "$config" -t "$id" 2>&1)" ||
      { echo "$out" >&2; fail "formatting $data/logs failed"; }
  fi
  nohup "${JAVA[@]}" "-Dauction.kafka.port=$PORT" -Xmx512m -XX:+ExitOnOutOfMemoryError \
    kafka.Kafka "$config" >>"$log" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
  SECONDS=0
  until answers 2>>"$log"; do
    if ! running || ((SECONDS >= START_TIMEOUT_S)); then
      if running; then say "no answer on port $PORT after ${START_TIMEOUT_S}s"; else say "exited at start"; fi
      say "the end of its log ($log):"
      tail -n 40 "$log" >&2
      stop >/dev/null 2>&1 || true
      exit 1
    fi
    sleep 0.2
  done
  say "started on port $PORT in ${SECONDS}s (pid $(cat "$PIDFILE"), data in $data)"
  echo "KAFKA_BROKERS=127.0.0.1:$PORT"
}

stop() { stop_service 300; }

case "${1:-}" in
  install) install && say "$LIBS" ;;
  start) start ;;
  stop) stop ;;
  *) fail "usage: $0 install|start|stop (KAFKA_PORT, KAFKA_DATA_DIR, AUCTION_CACHE_DIR)" ;;
esac
