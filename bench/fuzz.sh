#!/usr/bin/env bash
# A longer fuzzing campaign over every fuzz test in tidemill-core, for about SECONDS in all
# (default 300). Not part of CI.
#
# Jazzer's JUnit integration takes a fuzz test's duration only from its annotation (5-10 s here),
# so the campaign runs the fuzz execution round after round until the time is up. Each round
# starts from the corpus the previous ones grew (Jazzer keeps it in tidemill-core/.cifuzz-corpus/),
# so rounds add up to one long campaign rather than repeating the same few seconds.
#
# Findings (crash-* inputs) land in tidemill-core/src/test/resources/dev/tidemill/.../<Test>Inputs/,
# where the normal suite replays them as regression tests named after them; this script also
# copies them, with the log, to bench/fuzz-findings/<UTC>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
out="bench/fuzz-findings/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
./tidemill build >/dev/null
touch "$out/.started"
deadline=$(( $(date +%s) + seconds ))
round=0
status=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  round=$((round + 1))
  echo "== round $round, $(( deadline - $(date +%s) )) s left" | tee -a "$out/fuzz.log"
  if ! mvn -B -o -pl tidemill-core surefire:test@fuzz >>"$out/fuzz.log" 2>&1; then
    status=1
    echo "round $round failed: a finding (see the log)" | tee -a "$out/fuzz.log"
    break
  fi
done
find tidemill-core/src/test/resources -name 'crash-*' -newer "$out/.started" -exec cp {} "$out/" \; 2>/dev/null || true
corpus=$(find tidemill-core/.cifuzz-corpus -type f 2>/dev/null | wc -l)
echo "$round rounds; corpus now $corpus inputs; findings and log: $out"
exit $status
