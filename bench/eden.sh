#!/usr/bin/env bash
# Where a 1 KiB upload server's peak RSS goes: one upload target started the way the uploads suite
# starts it (pinned to CPU 0, the suite's JVM flags), raw 1 KiB PUTs discarded by wrk -t1 -c4 on
# CPU 1 for a window like the suite's (13 s: its 5 s warm-up and 8 s window), then its VmHWM, how
# many young collections ran, and how much of each heap space is resident, read page by page from
# /proc/<pid>/pagemap. docs/upload-benchmarks.md ("Limits of the method") quotes what this showed;
# the uploads table itself comes from ./tidemill bench uploads, not from this.
#
# usage: bench/eden.sh TARGET [JVM flag...]
#   TARGET  io | loop | virtual (Tidemill's modes) | jetty | vertx-web (upload peers, built by ./tidemill bench)
#   extra JVM flags go after the suite's, e.g. -XX:+ZeroTLAB (every TLAB written whole when handed out)
# Needs the runner and the peer built (./tidemill bench uploads builds them) and /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target}; shift
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
port=${PORT:-18099}
seconds=${SECONDS_OF_LOAD:-13}
runner=tidemill-bench/runner
gclog=$(mktemp)
lua=$(mktemp --suffix=.lua)
trap 'rm -f "$gclog" "$lua"' EXIT
# The suite's flags (TargetCatalog.JVM_FLAGS): a fixed 1 GiB heap, ParallelGC, heap not pre-touched.
flags=(-Xms1g -Xmx1g -XX:+UseParallelGC -XX:-AlwaysPreTouch --sun-misc-unsafe-memory-access=allow
  --enable-native-access=ALL-UNNAMED "-Xlog:gc:file=$gclog" "$@")
case $target in
  io|loop|virtual)
    cp="$runner/target/classes:$(cat "$runner/target/classpath.txt")"
    args=(dev.tidemill.bench.targets.TidemillUploads) ;;
  jetty)
    cp="tidemill-bench/peers/jetty/target/classes:$(cat tidemill-bench/peers/jetty/target/classpath.txt)"
    args=(dev.tidemill.bench.peers.jetty.UploadsMain "$port" 1) ;;
  vertx-web)
    cp="tidemill-bench/peers/vertx-web/target/classes:$(cat tidemill-bench/peers/vertx-web/target/classpath.txt)"
    args=(dev.tidemill.bench.peers.vertxweb.UploadsMain "$port" 1 stream) ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
TIDEMILL_MODE=$target TIDEMILL_PORT=$port TIDEMILL_IO_THREADS=1 TIDEMILL_LOOPS=1 \
  taskset -c 0 "$java" "${flags[@]}" -cp "$cp" "${args[@]}" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$gclog" "$lua"' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
printf 'wrk.method = "PUT"\nwrk.path = "/upload/discard"\nwrk.headers["Content-Type"] = "application/octet-stream"\nwrk.body = string.rep("x", 1024)\n' >"$lua"
idle=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
uploads=$(taskset -c 1 wrk -t1 -c4 -d"${seconds}s" -s "$lua" "http://127.0.0.1:$port" | grep -oP '^\s*\K\d+(?= requests in)')
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
echo "$target: $uploads uploads in ${seconds} s, idle VmRSS $idle KiB, VmHWM $hwm KiB, young collections $(grep -c 'Pause Young' "$gclog" || true)"
# ParallelGC's spaces inside the reserved heap, from the JVM itself, then each one's resident pages.
"${java%/java}/jcmd" "$pid" GC.heap_info | /usr/bin/python3 -c '
import re, struct, sys
pid = int(sys.argv[1])
spaces = []
for line in sys.stdin:
    m = re.search(r"(eden|from|to|object)\s+space.*\[0x([0-9a-f]+),\s*0x[0-9a-f]+,\s*0x([0-9a-f]+)\)", line)
    if m:
        spaces.append(("old" if m.group(1) == "object" else m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
with open("/proc/%d/pagemap" % pid, "rb") as f:
    for name, start, end in spaces:
        f.seek(start // 4096 * 8)
        data = f.read((end - start) // 4096 * 8)
        resident = sum(1 for i in range(0, len(data), 8) if struct.unpack_from("<Q", data, i)[0] >> 63)
        print("  %-5s %8d KiB of %8d KiB resident" % (name, resident * 4, (end - start) // 1024))
' "$pid"
