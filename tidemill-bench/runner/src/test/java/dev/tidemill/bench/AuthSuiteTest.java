package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.common.AuthContract;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.targets.TidemillAuthApp;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The authentication suite's checks over real sockets, and its pure parts: options, rows, ratios, goals and the page. */
class AuthSuiteTest {

    @Test
    void tidemillsTargetPassesTheChecksWithKeysFromTheJwksEndpoint() {
        AuthKeys.Key key = AuthKeys.Key.generate("bench-a");
        try (AuthKeys keys = new AuthKeys(List.of(key))) {
            Server server = TidemillAuthApp.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0",
                    "TIDEMILL_AUTH_ISSUER", AuthContract.ISSUER, "TIDEMILL_AUTH_AUDIENCE", AuthContract.AUDIENCE,
                    "TIDEMILL_AUTH_JWKS_URI", keys.uri().toString()))).start();
            try {
                assertThat(AuthChecks.check(server.port(), key.token("someone"), key)).isEmpty();
                assertThat(keys.fetches()).isEqualTo(1);
                // a token of a key the endpoint does not publish, whatever its claims, is refused
                assertThat(AuthChecks.check(server.port(), AuthKeys.Key.generate("bench-b").token("someone"), key))
                        .containsExactly("GET /auth/bearer with a token: 401, expected 200");
            } finally {
                server.close();
            }
        }
    }

    @Test
    void aTargetThatLetsEveryoneInFailsTheChecks() {
        AuthKeys.Key key = AuthKeys.Key.generate("bench-a");
        Tidemill open = Tidemill.create(Config.fromEnvironment(Map.of("TIDEMILL_PORT", "0")));
        open.get(AuthContract.ANONYMOUS_PATH, req -> Scenario.PLAINTEXT_BODY);
        open.get(AuthContract.BEARER_PATH, req -> Scenario.PLAINTEXT_BODY);
        Server server = open.start();
        try {
            assertThat(AuthChecks.check(server.port(), key.token("someone"), key)).containsExactly(
                    "GET /auth/bearer: 200, expected 401", "GET /auth/bearer with a token: 200, expected 401");
        } finally {
            server.close();
        }
    }

    @Test
    void optionsHaveDefaultsAndRefuseWhatTheyDoNotKnow() {
        AuthSettings full = AuthSettings.parse(List.of());
        assertThat(full.suite()).isEqualTo("auth");
        assertThat(full.rounds()).isEqualTo(3);
        assertThat(full.jmhOptions()).containsSubsequence("-f", "1", "-wi", "5", "-i", "5");
        AuthSettings quick = AuthSettings.parse(List.of("--quick", "--targets", "tidemill", "--rounds", "2"));
        assertThat(quick.suite()).isEqualTo("auth-quick");
        assertThat(quick.targets()).containsExactly("tidemill");
        assertThat(quick.rounds()).isEqualTo(2);
        assertThatThrownBy(() -> AuthSettings.parse(List.of("--cases", "x"))).hasMessageContaining("unknown option --cases");
        assertThatThrownBy(() -> AuthSettings.parse(List.of("--duration", "1"))).hasMessageContaining("--duration must be >= 2");
    }

    @Test
    void theUncachedCaseSendsMoreTokensThanTheCacheHolds() {
        AuthSuite suite = new AuthSuite(AuthSettings.parse(List.of("--quick")), "test", System.out);
        List<String> c = AuthSuite.with(suite.wrk("1", 8080, "bearer-uncached", "t", Path.of("tokens.txt"), Path.of("s")), 3);
        assertThat(c).containsSubsequence("wrk", "-d3s", "-t1", "-c64", "-s", Path.of("s", "tokens.lua").toString(),
                "http://127.0.0.1:8080" + AuthContract.BEARER_PATH, "--", "tokens.txt");
        assertThat(AuthSuite.UNCACHED_TOKENS).isGreaterThan(10_000);
        assertThat(AuthSuite.class.getResource("/wrk/tokens.lua")).isNotNull();
        assertThat(suite.wrk("1", 8080, "bearer-cached", "abc", Path.of("t"), Path.of("s"))).contains("Authorization: Bearer abc");
    }

    @Test
    void ratiosAreTakenWithinARoundAndTheGoalsFollowThem() {
        List<AuthSuite.Row> rows = List.of(
                AuthSuite.row(1, "tidemill", "anonymous", 100_000, 10, 0.9, 0, 50),
                AuthSuite.row(1, "tidemill", "bearer-cached", 100_000, 10, 1.0, 0, 95),
                AuthSuite.row(1, "tidemill", "bearer-uncached", 2_000, 10, 1.0, 0, 10),
                AuthSuite.row(2, "tidemill", "anonymous", 100_000, 10, 1.0, 0, 50),
                AuthSuite.row(2, "tidemill", "bearer-cached", 100_000, 10, 1.05, 0, 50),
                AuthSuite.row(1, "vertx-web", "anonymous", 100_000, 10, 1.0, 0, 50),
                AuthSuite.row(1, "vertx-web", "bearer-cached", 2_000, 10, 1.0, 0, 50),
                AuthSuite.row(1, "vertx-web", "bearer-uncached", 2_000, 10, 1.0, 3, 50));
        List<AuthReport.Summary> summary = AuthReport.summarise(rows);
        AuthReport.Summary cached = summary.stream().filter(s -> s.target().equals("tidemill") && s.caseId().equals("bearer-cached"))
                .findFirst().orElseThrow();
        // round 1: 10.0 / 9.0 = 1.111; round 2: 10.5 / 10.0 = 1.05; median 1.0806
        assertThat(cached.cpuVsAnonymous()).isBetween(1.08, 1.081);
        assertThat(cached.medianCpuUs()).isBetween(10.24, 10.26);
        assertThat(cached.clientBoundRounds()).isEqualTo(1);
        // a window with errors has no figure
        assertThat(summary).noneMatch(s -> s.target().equals("vertx-web") && s.caseId().equals("bearer-uncached"));

        List<AuthReport.Goal> goals = AuthReport.goals(summary, new AuthSuite.Rotation(20_000, 0, 0, 10, 6, 1, 1));
        assertThat(goals).extracting(AuthReport.Goal::met).containsExactly(true, true, true);
        assertThat(AuthReport.goals(summary, new AuthSuite.Rotation(20_000, 7, 0, 10, 6, 1, 1)).get(2).met()).isFalse();
        assertThat(AuthReport.goals(summary, null).get(2).met()).isNull();
    }

    @Test
    void thePageHasBothTablesTheGoalsAndNoMachinePath() {
        List<AuthSuite.Row> rows = List.of(AuthSuite.row(1, "tidemill", "anonymous", 1000, 1, 0.01, 0, 10),
                AuthSuite.row(1, "tidemill", "bearer-cached", 1000, 1, 0.02, 0, 10));
        List<AuthReport.Summary> summary = AuthReport.summarise(rows);
        AuthSuite.Result r = new AuthSuite.Result("auth", false, "2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", "./tidemill bench auth",
                Map.of("cpuModel", "test cpu"), List.of(), Map.of("wrk", "wrk -t1 -c64", "verifiers", Map.of("tidemill", "ours")),
                String.join(" ", AuthSuite.shown(List.of("taskset", "-c", "0", "/opt/jdk/bin/java", "-cp", "/home/x/a.jar",
                        "org.openjdk.jmh.Main", "-rff", "/tmp/x.json"))),
                List.of(new AuthSuite.JmhRow("ES256", "cached", 0.1, 0.01)), List.of(), rows, summary,
                AuthReport.goals(summary, null), null, List.of("EdDSA: not allowed"), List.of(), null);
        String page = AuthReport.page(r);
        assertThat(page).contains("| ES256 | cached | 0.10 | 0.01 |", "| tidemill | bearer-cached | 1,000 | 20.0 (20.0-20.0) | 2.00 |",
                "NOT met: an ES256 bearer route with the cache costs at most 1.1x", "EdDSA: not allowed", "| cpuModel | test cpu |");
        assertThat(page).doesNotContain("/home/x", "/opt/jdk", "/tmp/x.json");
    }
}
