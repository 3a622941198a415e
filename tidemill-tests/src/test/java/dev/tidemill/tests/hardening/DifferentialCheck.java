package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Not part of the normal suite (tag {@code differential}; run by {@code bench/differential.sh}):
 * sends every case of categories 1-4 to Tidemill and to nginx on loopback, compares status (or
 * close) and whether the request smuggled behind the case was served, and prints where they
 * disagree. It fails when a case changes status: one that agreed with nginx no longer does, or a
 * judged disagreement ({@link NginxDisagreements}, judgements in docs/security.md) now gets other
 * answers. Fails where nginx is not installed.
 */
@Tag("differential")
class DifferentialCheck {

    /** What one server did with one case. */
    record Outcome(String answer, boolean smuggledServed) {
        @Override
        public String toString() {
            return answer + (smuggledServed ? " +SMUGGLED" : "");
        }
    }

    static Stream<HostileCase> cases() {
        return Stream.of(FramingAndSmugglingTest.cases(), HeaderSyntaxTest.cases(), MalformedChunkedBodyTest.cases(),
                RequestLineAndHostTest.cases()).flatMap(s -> s);
    }

    @Test
    void tidemillAgainstNginx() throws Exception {
        Optional<Path> nginx = Stream.of("/usr/sbin/nginx", "/usr/bin/nginx").map(Path::of).filter(Files::isExecutable).findFirst();
        // not in the launcher's list: the default run excludes this check (bench/differential.sh runs it)
        assertThat(nginx).as("nginx is not installed; the check needs it: apt-get install -y --no-install-recommends nginx-light").isPresent();
        Path dir = Files.createTempDirectory("tidemill-differential-");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(dir.resolve("nginx.conf"), """
                daemon off;
                master_process off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    server {
                        listen 127.0.0.1:%2$d;
                        location = /ok { return 200 "ok"; }
                        location /echo { return 200 "echo"; }
                        location = /smuggled { return 200 "smuggled"; }
                    }
                }
                """.formatted(dir, port));
        Process p = new ProcessBuilder(nginx.get().toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("error.log").toString()).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        try (HostileServer tidemill = HostileServer.start();
             TestClient ngx = TestClient.connectTo("127.0.0.1", port).timeout(Duration.ofSeconds(5))) {
            waitForPort(ngx);
            List<String> rows = new ArrayList<>();
            List<String> regressions = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            int same = 0;
            for (HostileCase c : cases().toList()) {
                String key = NginxDisagreements.key(c.category(), c.name());
                seen.add(key);
                String t = outcome(tidemill.client, c).toString();
                String n = outcome(ngx, c).toString();
                if (t.equals(n)) {
                    same++;
                } else {
                    rows.add(String.format("| %s | %s | %s | %s |", c.category(), c.name().replace("|", "\\|"), t, n));
                }
                NginxDisagreements.Judged judged = NginxDisagreements.BY_CASE.get(key);
                if (judged == null && !t.equals(n)) {
                    regressions.add(key + ": agreed with nginx, now tidemill " + t + ", nginx " + n);
                } else if (judged != null && !(judged.tidemill().equals(t) && judged.nginx().equals(n))) {
                    regressions.add(key + ": judged as tidemill " + judged.tidemill() + ", nginx " + judged.nginx() + " ("
                            + judged.reason() + ": " + judged.reason().why + "), now tidemill " + t + ", nginx " + n);
                }
            }
            for (String key : NginxDisagreements.BY_CASE.keySet()) {
                if (!seen.contains(key)) regressions.add(key + ": judged, but no such case any more");
            }
            System.out.println("differential: " + same + " cases agree, " + rows.size() + " disagree\n"
                    + "| category | case | tidemill | nginx |\n|---|---|---|---|\n" + String.join("\n", rows));
            assertThat(regressions)
                    .as("cases whose agreement with nginx, or judged disagreement (NginxDisagreements, docs/security.md), changed")
                    .isEmpty();
        } finally {
            p.destroy();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static void waitForPort(TestClient c) {
        await("nginx answers on its port").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .ignoreExceptions().until(() -> c.get("/ok").status() == 200);
    }

    private static Outcome outcome(TestClient client, HostileCase c) {
        try (RawConnection raw = client.raw()) {
            raw.write(c.bytes() + HostileServer.SMUGGLED);
            Optional<TestResponse> first;
            try {
                first = raw.readResponseOrClose();
            } catch (RuntimeException e) {
                return new Outcome("timeout/garbled", false);
            }
            if (first.isEmpty()) return new Outcome("close", false);
            boolean smuggled = false;
            try {
                Optional<TestResponse> second = raw.readResponseOrClose();
                smuggled = second.isPresent() && second.get().text().equals("smuggled");
            } catch (RuntimeException ignored) {
                // no second response
            }
            int status = first.get().status();
            return new Outcome(status >= 200 && status < 300 ? "2xx" : Integer.toString(status), smuggled);
        }
    }
}
