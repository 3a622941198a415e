#!/usr/bin/env bash
# Sends every hardening case of categories 1-4 (framing, header syntax, chunked bodies, request
# line and Host) to Tidemill and to nginx on 127.0.0.1 and prints where they disagree. Not part of
# CI. Needs nginx (apt-get install nginx-light). Judgements of each disagreement: docs/security.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./tidemill build >/dev/null
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} mvn -B -q -pl tidemill-testing test \
  -Dtidemill.excludedGroups=none -Dgroups=differential -Dtest=DifferentialCheck -Dsurefire.failIfNoSpecifiedTests=false
cat tidemill-testing/target/surefire-reports/dev.tidemill.hardening.DifferentialCheck-output.txt
