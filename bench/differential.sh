#!/usr/bin/env bash
# Sends every hardening case of categories 1-4 (framing, header syntax, chunked bodies, request
# line and Host) to Tidemill and to nginx on 127.0.0.1, prints where they disagree, and fails when
# a case's status changed: it agreed and no longer does, or a judged disagreement
# (tidemill-tests/.../hardening/NginxDisagreements.java, docs/security.md) gets other answers.
# Not part of CI. Needs nginx (apt-get install nginx-light).
set -euo pipefail
cd "$(dirname "$0")/.."
./tidemill build >/dev/null
status=0
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} mvn -B -q -pl tidemill-tests test \
  -Dtidemill.excludedGroups=none -Dgroups=differential -Dtest=DifferentialCheck -Dsurefire.failIfNoSpecifiedTests=false || status=$?
cat tidemill-tests/target/surefire-reports/dev.tidemill.tests.hardening.DifferentialCheck-output.txt || true
exit $status
