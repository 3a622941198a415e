#!/usr/bin/env bash
# One target, one scenario, measured the way the bench measures (server pinned to CPU 0, wrk -t1
# -c64 on CPU 1, 10 s of warm-up load, then a 10 s window), optionally under async-profiler.
# Prints server CPU per request; with --profile also writes a collapsed-stack profile and the
# frames with the most self time. For looking at one cost quickly, between full bench runs; the
# figures in docs/performance.md come from ./tidemill bench, not from this.
#
# usage: bench/profile.sh TARGET SCENARIO [--profile]
#   TARGET    io | loop | virtual (Tidemill's modes) | baseline | vertx-core (or any built peer)
#   SCENARIO  plaintext | json | pipelined | mix
# Needs the runner built (./tidemill bench builds it; or mvn -pl tidemill-bench/runner -am package).
# Output in bench/profiles/<UTC>-TARGET-SCENARIO.* (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target}; scenario=${2:?scenario}; profile=${3:-}
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
runner=tidemill-bench/runner
port=${PORT:-18080}
out="bench/profiles/$(date -u +%Y%m%dT%H%M%SZ)-$target-$scenario"
mkdir -p bench/profiles
cp="$runner/target/tidemill-bench-0.1.0-SNAPSHOT.jar:$(cat "$runner/target/classpath.txt")"
case $target in
  io|loop|virtual) main=dev.tidemill.bench.targets.TidemillApp ;;
  baseline) main=dev.tidemill.bench.targets.BaselineNetty ;;
  *) peer="tidemill-bench/peers/$target"
     [[ -f $peer/target/classpath.txt ]] || { echo "no built peer $target" >&2; exit 2; }
     cp="$peer/target/classes:$(cat "$peer/target/classpath.txt")"
     main="dev.tidemill.bench.peers.${target//-/}.Main" ;;
esac
agent=()
if [[ $profile == --profile ]]; then
  lib=$(find "${ASYNC_PROFILER_HOME:-bench/async-profiler}" -name libasyncProfiler.so 2>/dev/null | head -n 1 || true)
  if [[ -z $lib ]]; then
    # async-profiler from Maven Central: the jar carries the native library per platform.
    mvn -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.2 -DoutputDirectory=bench/async-profiler
    (cd bench/async-profiler && unzip -o -q async-profiler-4.2.jar 'linux-x64/*')
    lib=bench/async-profiler/linux-x64/libasyncProfiler.so
  fi
  agent=("-agentpath:$lib=start,event=cpu,interval=200us,file=$out.collapsed,collapsed")
fi
case $scenario in
  plaintext) wrk_args=("http://127.0.0.1:$port/plaintext") ;;
  json) wrk_args=("http://127.0.0.1:$port/json") ;;
  pipelined) wrk_args=(-s "$runner/src/main/resources/wrk/pipeline.lua" "http://127.0.0.1:$port/plaintext") ;;
  mix) wrk_args=(-s "$runner/src/main/resources/wrk/mix.lua" "http://127.0.0.1:$port/") ;;
  *) echo "unknown scenario $scenario" >&2; exit 2 ;;
esac
TIDEMILL_MODE=$target TIDEMILL_PORT=$port TIDEMILL_IO_THREADS=1 TIDEMILL_LOOPS=1 \
  taskset -c 0 "$java" -Xms1g -Xmx1g -XX:+UseParallelGC --sun-misc-unsafe-memory-access=allow \
  --enable-native-access=ALL-UNNAMED "${agent[@]}" -cp "$cp" "$main" "$port" 1 >"$out.server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/plaintext" && break; sleep 0.1; done
taskset -c 1 wrk -t1 -c64 -d10s "${wrk_args[@]}" >/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
t0=$(ticks)
taskset -c 1 wrk -t1 -c64 -d10s "${wrk_args[@]}" >"$out.wrk"
t1=$(ticks)
requests=$(grep -oP '^\s*\K\d+(?= requests in)' "$out.wrk")
hz=$(getconf CLK_TCK)
awk -v t="$target" -v s="$scenario" -v r="$requests" -v d=$((t1 - t0)) -v hz="$hz" \
  'BEGIN { printf "%s %s: %d requests, server CPU %.3f us/request\n", t, s, r, d * 1e6 / hz / r }' | tee "$out.txt"
kill "$pid"; wait "$pid" 2>/dev/null || true
trap - EXIT
if [[ -n ${agent[*]} ]]; then
  echo "frames with the most self time ($out.collapsed):" | tee -a "$out.txt"
  awk '{ n = $NF; $NF = ""; k = split($0, f, ";"); sub(/ $/, "", f[k]); self[f[k]] += n; total += n }
       END { for (x in self) printf "%5.1f %%  %s\n", 100 * self[x] / total, x }' "$out.collapsed" \
    | sort -rn | head -n 25 | tee -a "$out.txt"
fi
