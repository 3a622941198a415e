#!/usr/bin/env bash
# A sanity check, not the benchmark suite: hello-world req/s of Tidemill in IO, LOOP and VIRTUAL
# modes next to a minimal hand-written Netty server, measured in the same run, interleaved.
# Server pinned to CPU 0, wrk to CPU 1. Usage: bench/quick-hello.sh [rounds] [seconds] [warmup-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-2}; SECS=${2:-10}; WARM=${3:-15}
command -v wrk >/dev/null || { echo "quick-hello: needs wrk (apt-get install -y wrk)"; exit 1; }
# Same heap and GC for every JVM; ./tidemill adds the Netty/JDK 25 flags to all of them.
export TIDEMILL_JAVA_OPTS="-Xms512m -Xmx512m -XX:+UseParallelGC"
./tidemill build
PORT=18080
targets=(baseline IO LOOP VIRTUAL)
start() {
  case "$1" in
    baseline) taskset -c 0 ./tidemill run dev.tidemill.examples.baseline.BaselineNetty $PORT 1 >/tmp/qh-$1.log 2>&1 & ;;
    *) TIDEMILL_PORT=$PORT TIDEMILL_MODE=$1 TIDEMILL_IO_THREADS=1 TIDEMILL_LOOPS=1 taskset -c 0 ./tidemill run dev.tidemill.examples.HelloServer >/tmp/qh-$1.log 2>&1 & ;;
  esac
  PID=$!
  for _ in $(seq 100); do curl -sf http://127.0.0.1:$PORT/plaintext >/dev/null 2>&1 && break; sleep 0.1; done
  body=$(curl -s http://127.0.0.1:$PORT/plaintext)
  [ "$body" = "Hello, World!" ] || { echo "target $1 answered wrong: '$body'"; kill $PID; exit 1; }
}
declare -A results
for round in $(seq "$ROUNDS"); do
  # rotate the order each round
  order=("${targets[@]:$((round % 4))}" "${targets[@]:0:$((round % 4))}")
  for t in "${order[@]}"; do
    start "$t"
    taskset -c 1 wrk -t1 -c64 -d${WARM}s http://127.0.0.1:$PORT/plaintext >/dev/null || echo "warm-up of $t: wrk failed"
    out=$(taskset -c 1 wrk -t1 -c64 -d${SECS}s --latency http://127.0.0.1:$PORT/plaintext) || echo "round $round $t: wrk failed"
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1=="99%" {print $2}')
    errs=$(echo "$out" | grep -E "Socket errors|Non-2xx" | tr '\n' ' ' || true)
    echo "round $round  $t  req/s=$rps  p99=$p99 $errs"
    results[$t]="${results[$t]:-} $rps"
    kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true
  done
done
echo
echo "target    req/s per round          ratio to baseline (same round)"
IFS=' ' read -r -a base <<< "${results[baseline]}"
for t in "${targets[@]}"; do
  IFS=' ' read -r -a vals <<< "${results[$t]}"
  ratios=""
  for i in "${!vals[@]}"; do ratios+=$(awk -v a="${vals[$i]}" -v b="${base[$i]}" 'BEGIN{printf "%.2f ", a/b}'); done
  printf "%-9s %-24s %s\n" "$t" "${results[$t]}" "$ratios"
done
echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, $(uname -r)"
