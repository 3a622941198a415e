package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS suite's pure parts: the clients' output, the checks' parsing, the ratios, the goals and the page. */
class TlsSuiteTest {
    @TempDir
    Path dir;

    static final String H2LOAD_TLS = """
            starting benchmark...
            spawning thread #0: 16 total client(s). Timing-based test with 0s of warm-up time and 8s of main duration for measurements.
            TLS Protocol: TLSv1.3
            Cipher: TLS_AES_128_GCM_SHA256
            Server Temp Key: X25519 253 bits
            Application protocol: h2
            Main benchmark duration is over for thread #0. Stopping all clients.

            finished in 8.00s, 21972.50 req/s, 772.84KB/s
            requests: 175780 total, 176292 started, 175780 done, 175770 succeeded, 4 failed, 3 errored, 2 timeout
            status codes: 175770 2xx, 0 3xx, 1 4xx, 0 5xx
            traffic: 1.51MB (1582776) total, 215.08KB (220237) headers (space savings 95.44%), 557.90KB (571285) data
            """;

    static final String H2LOAD_H2C = """
            Application protocol: h2c
            finished in 2.00s, 47682.00 req/s, 1.64MB/s
            requests: 95364 total, 95396 started, 95364 done, 95364 succeeded, 0 failed, 0 errored, 0 timeout
            status codes: 95364 2xx, 0 3xx, 0 4xx, 0 5xx
            """;

    @Test
    void h2loadGivesTheTwoXxAnswersEveryKindOfErrorAndTheNegotiatedProtocol() {
        TlsLoad.Load l = TlsLoad.parseH2load(H2LOAD_TLS);
        assertThat(l.requests()).isEqualTo(175_770);
        assertThat(l.seconds()).isEqualTo(8.0);
        assertThat(l.errors()).isEqualTo(4 + 3 + 2 + 1);
        assertThat(l.protocol()).isEqualTo("h2");
        assertThat(l.details()).isEqualTo("TLSv1.3 TLS_AES_128_GCM_SHA256");
        assertThat(l.problems()).isEmpty();
        TlsLoad.Load c = TlsLoad.parseH2load(H2LOAD_H2C);
        assertThat(c.protocol()).isEqualTo("h2c");
        assertThat(c.details()).isEmpty();
        assertThat(c.errors()).isZero();
        assertThat(c.requestsPerSec()).isEqualTo(95_364 / 2.0);
    }

    @Test
    void h2loadWithoutASummaryOrAProtocolIsAProblemNotAZero() {
        TlsLoad.Load broken = TlsLoad.parseH2load("h2load: unrecognized option '--alpn-list=h2'\n");
        assertThat(broken.errors()).isEqualTo(1);
        assertThat(broken.problems()).singleElement().asString().contains("no h2load summary", "unrecognized option");
        TlsLoad.Load none = TlsLoad.parseH2load(H2LOAD_H2C.replace("Application protocol: h2c\n", ""));
        assertThat(none.problems()).singleElement().asString().contains("no application protocol");
    }

    @Test
    void sTimeIsReadPastItsProgressStarsAndAFailedRunIsAnError() {
        String out = "*".repeat(300) + "\n\n1862 connections in 1.35s; 1379.26 connections/user sec, bytes read 290472\n"
                + "1862 connections in 3 real seconds, 156 bytes read per connection\n";
        TlsLoad.Load l = TlsLoad.parseSTime(out, 0);
        assertThat(l.requests()).isEqualTo(1862);
        assertThat(l.errors()).isZero();
        assertThat(l.details()).isEqualTo("156 bytes per connection");
        TlsLoad.Load failed = TlsLoad.parseSTime(out, 1);
        assertThat(failed.errors()).isEqualTo(1);
        assertThat(failed.problems()).singleElement().asString().startsWith("s_time exited 1");
        assertThat(TlsLoad.parseSTime("Unable to get connection\n", 1).problems()).singleElement().asString().contains("no s_time summary");
    }

    @Test
    void theHandshakeRequestIsOneHttp11RequestThatAsksForTheClose() {
        String req = TlsLoad.handshakeRequest();
        assertThat(req).startsWith("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n").endsWith("\r\n\r\n");
        assertThat(req.split("\r\n\r\n", -1)).hasSize(2); // one head, nothing after it
        assertThat(TlsLoad.sTime("1", 8443, 8)).containsSequence("-new", "-time", "8", "-www", TlsLoad.S_TIME_PAGE);
        assertThat(TlsLoad.h2load("1", "https://127.0.0.1:1/plaintext", 16, 32, 8)).contains("--npn-list=h2", "-c16", "-m32");
        assertThat(TlsLoad.h2load("1", "http://127.0.0.1:1/plaintext", 16, 32, 8)).doesNotContain("--npn-list=h2");
    }

    @Test
    void curlsAnswerIsCheckedForStatusVersionTypeAndBody() {
        TlsChecks.Answer ok = TlsChecks.parseCurl("Hello, World!" + TlsChecks.MARK + "200 2 text/plain").orElseThrow();
        assertThat(ok).isEqualTo(new TlsChecks.Answer("Hello, World!", 200, "2", "text/plain"));
        assertThat(TlsChecks.problem(TlsCase.H2_TLS, ok)).isEmpty();
        assertThat(TlsChecks.problem(TlsCase.H1_TLS, ok)).hasValueSatisfying(p -> assertThat(p).contains("HTTP version 2, expected 1.1"));
        TlsChecks.Answer wrong = TlsChecks.parseCurl("Not Found" + TlsChecks.MARK + "404 1.1 text/html").orElseThrow();
        assertThat(TlsChecks.problem(TlsCase.H1, wrong)).hasValue("h1: status 404");
        TlsChecks.Answer body = TlsChecks.parseCurl("Hello" + TlsChecks.MARK + "200 1.1 text/plain; charset=utf-8").orElseThrow();
        assertThat(TlsChecks.problem(TlsCase.H1, body)).hasValue("h1: body 'Hello'");
        assertThat(TlsChecks.parseCurl("curl: (7) Failed to connect")).isEmpty();
    }

    @Test
    void sClientsHandshakeMustBeModernTlsWithH2AndTheStartsCertificate() {
        String out = """
                CONNECTED(00000003)
                Peer signature type: ECDSA
                Server Temp Key: X25519, 253 bits
                ---
                New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384
                Server public key is 256 bit
                ALPN protocol: h2
                """;
        TlsChecks.Handshake h = TlsChecks.parseSClient(out).orElseThrow();
        assertThat(h).isEqualTo(new TlsChecks.Handshake("TLSv1.3", "TLS_AES_256_GCM_SHA384", "h2", 256, "ECDSA"));
        assertThat(TlsChecks.problem(h, TlsCase.TlsKey.P256)).isEmpty();
        assertThat(TlsChecks.problem(h, TlsCase.TlsKey.RSA)).hasValue("server key 256 bit, expected RSA-2048");
        TlsChecks.Handshake noAlpn = TlsChecks.parseSClient(out.replace("ALPN protocol: h2\n", "")).orElseThrow();
        assertThat(TlsChecks.problem(noAlpn, TlsCase.TlsKey.P256)).hasValueSatisfying(p -> assertThat(p).contains("chose none"));
        assertThat(TlsChecks.parseSClient("connect:errno=111\n")).isEmpty();
    }

    /** A clean window: {@code requests} in 2 s with {@code cpuUs} of server CPU each. */
    static TlsSuite.Row row(int round, String target, TlsCase c, double cpuUs) {
        String kind = target.startsWith("tidemill-") ? "tidemill" : target.equals("nginx") ? "native" : "peer";
        return TlsSuite.row(round, target, kind, c, "-c64", 100_000, 2, cpuUs * 100_000 / 1e6, 0, "h2", "", 50, List.of());
    }

    static List<TlsSuite.Row> rows() {
        return List.of(
                row(1, "tidemill-openssl", TlsCase.H1, 5), row(2, "tidemill-openssl", TlsCase.H1, 4),
                row(1, "tidemill-openssl", TlsCase.H2_TLS, 10), row(2, "tidemill-openssl", TlsCase.H2_TLS, 12),
                row(1, "tidemill-jdk", TlsCase.H1, 5), row(1, "tidemill-jdk", TlsCase.H2_TLS, 20),
                row(1, "vertx-web", TlsCase.H1, 4), row(1, "vertx-web", TlsCase.H2_TLS, 9),
                row(1, "jetty", TlsCase.H1, 8), row(1, "jetty", TlsCase.H2_TLS, 30),
                row(1, "nginx", TlsCase.H1, 2), row(1, "nginx", TlsCase.H2_TLS, 3),
                row(1, "tidemill-openssl", TlsCase.H2C, 6), row(1, "jetty", TlsCase.H2C, 7),
                // a peer window with errors does not count: jetty's h2c would otherwise be the lowest
                TlsSuite.row(2, "jetty", "peer", TlsCase.H2C, "-c16 -m32", 100_000, 2, 0.1, 5, "h2c", "", 50, List.of()),
                row(1, "tidemill-openssl", TlsCase.HANDSHAKE_RSA, 2000), row(1, "tidemill-jdk", TlsCase.HANDSHAKE_RSA, 9000));
    }

    @Test
    void theDerivedRatesComeFromTheWindowAndTheServerCpu() {
        TlsSuite.Row r = row(1, "jetty", TlsCase.H1, 8);
        assertThat(r.requestsPerSec()).isEqualTo(50_000);
        assertThat(r.serverCpuUsPerRequest()).isCloseTo(8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.clean()).isTrue();
        assertThat(TlsSuite.row(1, "x", "peer", TlsCase.H1, "", 10, 1, 1, 0, "", "", 95, List.of()).clientBound()).isTrue();
        assertThat(TlsSuite.row(1, "x", "peer", TlsCase.H1, "", 10, 1, 1, 0, "", "", 10, List.of("resumed")).clean()).isFalse();
    }

    @Test
    void theCostIsTheMedianOfSameRoundRatiosToTheTargetsPlaintext() {
        List<TlsReport.Summary> s = TlsReport.summarise(rows());
        TlsReport.Summary h2 = s.stream().filter(x -> x.target().equals("tidemill-openssl") && x.caseId().equals("h2-tls")).findFirst()
                .orElseThrow();
        assertThat(h2.rounds()).isEqualTo(2);
        assertThat(h2.medianCpuUsPerRequest()).isCloseTo(11, org.assertj.core.data.Offset.offset(1e-9));
        // round 1: 10 / 5 = 2; round 2: 12 / 4 = 3; median 2.5 (not 11 / 4.5)
        assertThat(h2.costToH1()).isCloseTo(2.5, org.assertj.core.data.Offset.offset(1e-9));
        TlsReport.Summary jettyH2c = s.stream().filter(x -> x.target().equals("jetty") && x.caseId().equals("h2c")).findFirst().orElseThrow();
        assertThat(jettyH2c.rounds()).isEqualTo(1);
        assertThat(jettyH2c.errors()).isEqualTo(5);
        assertThat(jettyH2c.medianCpuUsPerRequest()).isCloseTo(7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(TlsReport.median(List.of())).isNaN();
    }

    @Test
    void tidemillIsJudgedAgainstTheLowestJvmPeerNotAgainstNginx() {
        List<TlsReport.PeerGoal> goals = TlsReport.peerGoals(TlsReport.summarise(rows()));
        TlsReport.PeerGoal h2 = goals.stream().filter(g -> g.caseId().equals("h2-tls")).findFirst().orElseThrow();
        assertThat(h2.tidemill()).isEqualTo("tidemill-openssl");
        assertThat(h2.peer()).isEqualTo("vertx-web"); // nginx's 3 us is a reference, not a peer
        assertThat(h2.met()).isFalse(); // 11 against 9
        assertThat(h2.goal()).isTrue();
        TlsReport.PeerGoal h2c = goals.stream().filter(g -> g.caseId().equals("h2c")).findFirst().orElseThrow();
        assertThat(h2c.met()).isTrue(); // 6 against jetty's clean 7
        assertThat(goals).noneMatch(g -> g.caseId().equals("handshake-rsa")); // no peer measured it
        String verdict = TlsReport.verdict(goals, TlsReport.providerGoals(TlsReport.summarise(rows())));
        assertThat(verdict).contains("met in 1 of 2 cases (goal not met)", "| h2-tls | yes | tidemill-openssl 11.0 | vertx-web 9.0 | no |");
    }

    @Test
    void theProvidersAreComparedOnEveryTlsCaseBothMeasured() {
        List<TlsReport.ProviderGoal> goals = TlsReport.providerGoals(TlsReport.summarise(rows()));
        assertThat(goals).extracting(TlsReport.ProviderGoal::caseId).containsExactly("h2-tls", "handshake-rsa");
        TlsReport.ProviderGoal h2 = goals.getFirst();
        assertThat(h2.met()).isTrue();
        assertThat(h2.cpuSavedPercent()).isCloseTo(45, org.assertj.core.data.Offset.offset(1e-9)); // 11 against 20
        String verdict = TlsReport.verdict(List.of(), goals);
        assertThat(verdict).contains("in 2 of 2 TLS cases (goal met)", "| h2-tls | 11.0 | 20.0 | +45.0 % |");
        assertThat(verdict).contains("Lowest CPU of the JVM peers: not judged");
    }

    @Test
    void thePageHasTheTablesTheGoalsAndWhatWasNotServed() {
        List<TlsReport.Summary> s = TlsReport.summarise(rows());
        TlsSuite.Result r = new TlsSuite.Result("tls", false, "2026-12-02T00:00:00Z", "2026-12-02T00:18:00Z", "./tidemill bench tls",
                Map.of("gitCommit", "abc"), List.of(), Map.of("rounds", 2, "tlsStacks", Map.of("jetty", "the JDK's SSLEngine")),
                List.of(Map.of("target", "jetty", "certificate", "ECDSA P-256", "handshake", "TLSv1.3 X, ALPN h2, server key 256 bit")),
                rows(), List.of(new ResumptionLog.Window(1, "nginx", "handshake-rsa", 1862, 0)), s, TlsReport.peerGoals(s),
                TlsReport.providerGoals(s),
                List.of("helidon: handshake-rsa not served (keeps the connection open)"), List.of());
        String page = TlsReport.page(r);
        assertThat(page).startsWith("# Tidemill bench, TLS and HTTP/2 suite, 2026-12-02T00:00:00Z")
                .contains("## Results", "| h1 | tidemill-openssl | ECDSA P-256 | -c64 | 50,000 | 4.5 | 1.00x (baseline) |",
                        "| h2-tls | tidemill-openssl | ECDSA P-256 | -c64 | 50,000 | 11.0 | 2.50x |", "## Goals",
                        "jetty: the JDK's SSLEngine", "jetty (ECDSA P-256): TLSv1.3 X", "## Not measured", "helidon: handshake-rsa not served",
                        "## Session resumption", "- nginx handshake-rsa, round 1: 0 of 1,862 requests on resumed sessions")
                .doesNotContain("## Failures");
        Path json = ResultFile.write(dir, "tls", r, page);
        assertThat(ResultFile.read(json, TlsSuite.Result.class).summary()).hasSameSizeAs(s);
        assertThat(ResultFile.gitCommitOf(json)).isEqualTo("abc");
        assertThat(PerformanceDoc.body(json)).startsWith("Every target answers GET").contains("### Goals");
    }

    @Test
    void settingsAlwaysRunThePlaintextBaselineInCaseOrder() throws Exception {
        TlsSettings s = TlsSettings.parse(List.of("--cases", "h2c,h2-tls", "--targets", "jetty", "--rounds", "3"));
        assertThat(s.cases()).containsExactly(TlsCase.H1, TlsCase.H2_TLS, TlsCase.H2C);
        assertThat(s.targets()).containsExactly("jetty");
        assertThat(s.suite()).isEqualTo("tls");
        TlsSettings quick = TlsSettings.parse(List.of("--quick"));
        assertThat(quick.suite()).isEqualTo("tls-quick");
        assertThat(quick.rounds()).isEqualTo(1);
        assertThat(quick.cases()).hasSize(TlsCase.values().length);
        assertThatThrownBy(() -> TlsSettings.parse(List.of("--cases", "h3"))).hasMessageContaining("unknown case h3");
        assertThatThrownBy(() -> TlsSettings.parse(List.of("--bogus"))).hasMessageContaining("unknown option --bogus");
        assertThat(Files.exists(dir)).isTrue();
    }

    @Test
    void theTargetsAskForTheProviderAndTheCertificateTheyAreMeasuredWith() {
        List<TlsTargets.Spec> all = TlsTargets.all(dir, new java.util.ArrayList<>());
        TlsTargets.Spec jdk = all.stream().filter(t -> t.name().equals("tidemill-jdk")).findFirst().orElseThrow();
        Target.Command c = jdk.launch().at(new TlsTargets.Ports(8080, 8443, 8080), 1, dir, dir.resolve("rsa"));
        assertThat(c.env()).containsEntry("TIDEMILL_TLS_PROVIDER", "jdk").containsEntry("TIDEMILL_MODE", "loop")
                .containsEntry("TIDEMILL_TLS_PORT", "8443").containsEntry("TIDEMILL_TLS_CERT", dir.resolve("rsa/cert.pem").toString());
        assertThat(TlsTargets.select(all, List.of())).extracting(TlsTargets.Spec::name).doesNotContain("vertx-web-jdk");
        assertThatThrownBy(() -> TlsTargets.select(all, List.of("nope"))).hasMessageContaining("unknown target nope");
        assertThat(TlsSuite.url(TlsCase.H2C, new TlsTargets.Ports(1, 2, 3))).isEqualTo("http://127.0.0.1:3/plaintext");
        assertThat(TlsSuite.url(TlsCase.HANDSHAKE_RSA, new TlsTargets.Ports(1, 2, 3))).isEqualTo("https://127.0.0.1:2/plaintext");
    }

    @Test
    void theReportDropsTlsFromWhatIsNotMeasuredOnceItHasAResult() {
        assertThat(PerformanceDoc.supersede(PerformanceDoc.OLD_NOT_BUILT, Set.of("pages", "streams", "tls")))
                .isEqualTo("compression, SSE, WebSocket, TLS and HTTP/2 are measured in the sections above");
        assertThat(PerformanceDoc.OTHER_SUITES).containsKey("tls");
    }

    @Test
    void resumedSessionsAreCountedFromNginxsLogAndAMissingLogIsAnError() throws Exception {
        Path start = dir.resolve("r1").resolve("nginx-p256");
        Files.createDirectories(start);
        ResumptionLog log = new ResumptionLog(start);
        assertThatThrownBy(log::resumed).isInstanceOf(IllegalStateException.class).hasMessageContaining("no resumed.log in");
        try (var sample = TlsSuiteTest.class.getResourceAsStream(Nginx.RESUMED_LOG)) {
            Files.copy(sample, start.resolve(Nginx.RESUMED_LOG));
        }
        assertThat(log.resumed()).isEqualTo(3); // three 'r' lines; the '.' is a new session
        Files.writeString(start.resolve(Nginx.RESUMED_LOG), "r TLSv1.3\n", java.nio.file.StandardOpenOption.APPEND);
        assertThatThrownBy(log::resumed).hasMessageContaining("line 5 is not");
        assertThat(ResumptionLog.resumed(List.of())).isZero();
        assertThat(ResumptionLog.keptBy(new TlsTargets.Spec("nginx", "native", false, true, "OpenSSL", null))).isTrue();
        assertThat(ResumptionLog.keptBy(new TlsTargets.Spec("jetty", "peer", true, false, "JDK", null))).isFalse();
    }

    @Test
    void aServerProcessThatIsGoneHasNoCpuFigure() throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        assertThatThrownBy(() -> TlsSuite.treeTicks(done.pid())).isInstanceOf(IllegalStateException.class).hasMessageContaining("is gone");
        assertThat(TlsSuite.treeTicks(ProcessHandle.current().pid())).isPositive();
    }

    @Test
    void nginxGetsTlsH2AndAnH2cPortOfItsOwnAndLogsOnlyResumedSessions() throws Exception {
        List<String> cmd = Nginx.tlsCommand(Path.of("/usr/sbin/nginx"), new TlsTargets.Ports(8080, 8443, 8081), 1, dir, dir.resolve("p256"));
        String conf = Files.readString(dir.resolve("nginx.conf"));
        assertThat(cmd).contains("-c", dir.resolve("nginx.conf").toString());
        assertThat(conf).contains("listen 127.0.0.1:8080;", "listen 127.0.0.1:8081 http2;", "listen 127.0.0.1:8443 ssl http2;",
                "ssl_protocols TLSv1.2 TLSv1.3;", "master_process off;", "worker_processes 1;", "if=$resumed",
                "return 200 \"Hello, World!\";");
        Nginx.tlsCommand(Path.of("/usr/sbin/nginx"), new TlsTargets.Ports(8080, 8443, 8081), 2, dir, dir.resolve("p256"));
        assertThat(Files.readString(dir.resolve("nginx.conf"))).contains("master_process on;", "worker_processes 2;");
    }
}
