#!/usr/bin/env bash
# A longer fuzzing campaign: every fuzz test in tidemill-core for SECONDS each (default 300).
# Findings (crash-* inputs) land in tidemill-core/src/test/resources/dev/tidemill/fuzz/<Test>Inputs/
# and are copied to bench/fuzz-findings/<UTC>/ with the log; from then on the normal suite replays
# them as regression tests. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
out="bench/fuzz-findings/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
./tidemill build >/dev/null
touch "$out/.started"
JAZZER_MAX_DURATION="${seconds}s" mvn -B -pl tidemill-core surefire:test@fuzz 2>&1 | tee "$out/fuzz.log" || true
find tidemill-core/src/test/resources -name 'crash-*' -newer "$out/.started" -exec cp {} "$out/" \; 2>/dev/null || true
echo "findings and log: $out"
