#!/usr/bin/env bash
# Tidemill's bench app over h2c (HTTP/2 by prior knowledge on its plain port) under h2load with 16
# connections of 32 concurrent streams each, with async-profiler attached: the server pinned to
# CPU 0 with one I/O thread, h2load -t1 -c16 -m32 on CPU 1, 10 s of warm-up load, then a 10 s
# window. Prints req/s, server CPU per request and the frames with the most self time. The
# HTTP/2 comments in tidemill-core that give an event-loop share (H2Connection, H2Pipeline,
# LeakDetection) were measured with this; the TLS and HTTP/2 table in docs/performance.md comes
# from ./tidemill bench tls, not from this.
#
# usage: bench/prof-h2.sh [MODE] [--no-profile] [JVM flag...]
#   MODE          io (default) | loop | virtual
#   --no-profile  no agent: req/s and CPU as the server runs without one
#   JVM flags go after the suite's, e.g. -Dio.netty.leakDetection.level=simple (Netty's default
#   leak detection, which Tidemill turns off unless asked: LeakDetection)
# Needs the runner built (./tidemill bench builds it; or mvn -pl tidemill-bench/runner -am package
# dependency:build-classpath -Dmdep.outputFile=target/classpath.txt), h2load (Debian nghttp2-client)
# and curl. async-profiler 4.2 comes from Maven Central (tools.profiler:async-profiler) the first
# time, into bench/async-profiler (not committed). Output in bench/profiles/<UTC>-h2-MODE.* (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=io
if [[ ${1:-} == io || ${1:-} == loop || ${1:-} == virtual ]]; then mode=$1; shift; fi
profile=yes
if [[ ${1:-} == --no-profile ]]; then profile=no; shift; fi
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
runner=tidemill-bench/runner
port=${PORT:-18443}
url="http://127.0.0.1:$port/plaintext"
out="bench/profiles/$(date -u +%Y%m%dT%H%M%SZ)-h2-$mode"
mkdir -p bench/profiles
[[ -f $runner/target/classpath.txt ]] || { echo "build the runner first (./tidemill bench builds it)" >&2; exit 2; }
cp="$runner/target/tidemill-bench-0.1.0-SNAPSHOT.jar:$(cat "$runner/target/classpath.txt")"
agent=()
if [[ $profile == yes ]]; then
  lib=$(find "${ASYNC_PROFILER_HOME:-bench/async-profiler}" -name libasyncProfiler.so 2>/dev/null | head -n 1 || true)
  if [[ -z $lib ]]; then
    # async-profiler from Maven Central: the jar carries the native library per platform.
    mvn -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.2 -DoutputDirectory=bench/async-profiler
    (cd bench/async-profiler && unzip -o -q async-profiler-4.2.jar 'linux-x64/*')
    lib=bench/async-profiler/linux-x64/libasyncProfiler.so
  fi
  agent=("-agentpath:$lib=start,event=cpu,interval=200us,file=$out.collapsed,collapsed")
fi
# The suite's flags (TargetCatalog.JVM_FLAGS), then the caller's.
TIDEMILL_MODE=$mode TIDEMILL_PORT=$port TIDEMILL_IO_THREADS=1 TIDEMILL_LOOPS=1 \
  taskset -c 0 "$java" -Xms1g -Xmx1g -XX:+UseParallelGC -XX:-AlwaysPreTouch --sun-misc-unsafe-memory-access=allow \
  --enable-native-access=ALL-UNNAMED "${agent[@]}" "$@" -cp "$cp" dev.tidemill.bench.targets.TidemillApp >"$out.server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null --http2-prior-knowledge "$url" && break; sleep 0.1; done
taskset -c 1 h2load -t1 -c16 -m32 -D 10 "$url" >/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
t0=$(ticks)
taskset -c 1 h2load -t1 -c16 -m32 -D 10 "$url" >"$out.h2load"
t1=$(ticks)
grep -q '^Application protocol: h2c' "$out.h2load" || { echo "h2load did not speak h2c:" >&2; tail -n 5 "$out.h2load" >&2; exit 1; }
rps=$(grep -oP '^finished in [0-9.]+[a-z]+, \K[0-9.]+(?= req/s)' "$out.h2load")
done_=$(grep -oP '^requests: .* \K[0-9]+(?= succeeded)' "$out.h2load")
failed=$(grep -oP '^requests: .* \K[0-9]+(?= failed)' "$out.h2load")
hz=$(getconf CLK_TCK)
awk -v m="$mode" -v r="$rps" -v n="$done_" -v f="$failed" -v d=$((t1 - t0)) -v hz="$hz" -v p="$profile" \
  'BEGIN { printf "h2c %s (profiler %s): %.0f req/s, %d requests, %d failed, server CPU %.3f us/request\n", m, p, r, n, f, d * 1e6 / hz / n }' \
  | tee "$out.txt"
kill "$pid"; wait "$pid" 2>/dev/null || true
trap - EXIT
if [[ $profile == yes ]]; then
  echo "frames with the most self time ($out.collapsed):" | tee -a "$out.txt"
  awk '{ n = $NF; $NF = ""; k = split($0, f, ";"); sub(/ $/, "", f[k]); self[f[k]] += n; total += n }
       END { for (x in self) printf "%5.1f %%  %s\n", 100 * self[x] / total, x }' "$out.collapsed" \
    | sort -rn | head -n 25 | tee -a "$out.txt"
fi
