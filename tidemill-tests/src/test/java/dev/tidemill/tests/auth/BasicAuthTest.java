package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Auth;
import dev.tidemill.BasicUsers;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.tests.support.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP Basic (RFC 7617): PBKDF2 hashes verified off the I/O threads (a request waiting for its
 * check stalls no other), remembered so the hash is paid once; refused over plain HTTP unless the
 * app allows it; a 401 that asks for Basic; unsafe requests checked for CSRF like any ambient
 * credential; an application's own verifier.
 */
class BasicAuthTest {
    private static String adaHash;

    @BeforeAll
    static void hash() {
        adaHash = BasicUsers.hash("correct horse".toCharArray());
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    static void routes(Tidemill app) {
        app.get("/me", req -> {
            Principal p = req.principal().orElseThrow();
            return p.subject() + " via " + p.via() + " " + p.scopes();
        }).requires(Requirement.authenticated());
        app.post("/reports", req -> "made").requires(Requirement.scope("reports"));
        app.get("/open", req -> "open");
    }

    static TestClient start(Setup setup, Consumer<dev.tidemill.Config.Builder> tweak, BasicUsers users) {
        return setup.start(b -> {
            b.auth(Auth.basic(users));
            tweak.accept(b);
        }, BasicAuthTest::routes);
    }

    @Test
    void aRightPasswordPassesAWrongOneOrAnUnknownUserGets401AskingForBasic() {
        BasicUsers users = BasicUsers.of(List.of(new BasicUsers.User("ada", adaHash, Set.of("reports")))).allowingPlainHttp();
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), b -> { }, users)) {
            TestResponse ok = c.send(TestRequest.get("/me").header("Authorization", basic("ada", "correct horse")));
            assertThat(ok.text()).as("%s", ok).isEqualTo("ada via basic [reports]");
            for (String[] bad : new String[][] {{"ada", "wrong"}, {"bob", "correct horse"}, {"ada", ""}}) {
                TestResponse r = c.send(TestRequest.get("/me").header("Authorization", basic(bad[0], bad[1])));
                assertThat(r.status()).as("%s:%s", bad[0], bad[1]).isEqualTo(401);
                assertThat(r.header("WWW-Authenticate")).hasValue("Basic realm=\"tidemill\", charset=\"UTF-8\"");
                assertThat(r.text()).doesNotContain(bad[1].isEmpty() ? "\u0000" : bad[1]);
            }
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Basic !!!")).status()).isEqualTo(401);
            assertThat(c.send(TestRequest.get("/me").header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString("no-colon".getBytes(StandardCharsets.UTF_8)))).status()).isEqualTo(401);
            assertThat(c.send(TestRequest.of("POST", "/reports").header("Authorization", basic("ada", "correct horse"))
                    .header("Sec-Fetch-Site", "cross-site")).status()).as("an ambient credential from another site").isEqualTo(403);
            assertThat(c.send(TestRequest.of("POST", "/reports").header("Authorization", basic("ada", "correct horse"))
                    .header("Sec-Fetch-Site", "same-origin")).text()).isEqualTo("made");
        }
    }

    @Test
    void plainHttpIsRefusedUnlessAllowedAndTlsServes(@TempDir Path dir) {
        BasicUsers users = BasicUsers.of(List.of(new BasicUsers.User("ada", adaHash, Set.of())));
        TestCertificates.Pair server = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        try (TestClient plain = start(Setup.onDefaultTransport(ExecutionMode.LOOP),
                b -> b.tls(t -> t.port(0).certificate(server.certificate()).key(server.key())), users);
                TestClient tls = plain.tls(TestClient.trusting(server.certificate()))) {
            TestResponse refused = plain.send(TestRequest.get("/me").header("Authorization", basic("ada", "correct horse")));
            assertThat(refused.status()).as("%s", refused).isEqualTo(403);
            assertThat(refused.text()).contains("plain HTTP");
            assertThat(tls.send(TestRequest.get("/me").header("Authorization", basic("ada", "correct horse"))).text())
                    .isEqualTo("ada via basic []");
        }
    }

    @Test
    void aSlowCheckStallsNoOtherRequestAndASuccessIsRemembered() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger checks = new AtomicInteger();
        BasicUsers users = BasicUsers.verifiedBy((user, password) -> {
            checks.incrementAndGet();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return user.equals("svc") && new String(password).equals("pw")
                    ? Optional.of(new Principal("svc", Set.of("reports"), Set.of(), Principal.Via.BASIC, Map.of())) : Optional.empty();
        }).allowingPlainHttp();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.IO), b -> b.ioThreads(1), users)) {
            Future<String> waiting = pool.submit(() -> c.send(TestRequest.get("/me").header("Authorization", basic("svc", "pw"))).text());
            org.awaitility.Awaitility.await("the check began").atMost(java.time.Duration.ofSeconds(10)).until(() -> checks.get() == 1);
            for (int i = 0; i < 20; i++) assertThat(c.get("/open").text()).as("one I/O thread, still serving").isEqualTo("open");
            assertThat(waiting.isDone()).as("the request waits for its check").isFalse();
            release.countDown();
            assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("svc via basic [reports]");
            assertThat(c.send(TestRequest.get("/me").header("Authorization", basic("svc", "pw"))).text()).isEqualTo("svc via basic [reports]");
            assertThat(checks).as("the second request was remembered, not checked again").hasValue(1);
            assertThat(c.send(TestRequest.get("/me").header("Authorization", basic("svc", "other"))).status()).isEqualTo(401);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void hashesAndUsersFiles() {
        String h = BasicUsers.hash("s3cret".toCharArray());
        assertThat(h).startsWith("pbkdf2-sha256$600000$").doesNotContain("s3cret");
        assertThat(BasicUsers.hash("s3cret".toCharArray())).as("a new salt each time").isNotEqualTo(h);
        BasicUsers users = BasicUsers.parse("# tools\nops " + h + " deploy\n");
        assertThat(users.verify("ops", "s3cret".toCharArray()).map(Principal::scopes)).hasValue(Set.of("deploy"));
        assertThat(users.verify("ops", "wrong".toCharArray())).isEmpty();
        assertThatThrownBy(() -> BasicUsers.parse("ops md5$abc")).hasMessageContaining("pbkdf2-sha256");
        assertThatThrownBy(() -> new BasicUsers.User("a:b", h, Set.of())).hasMessageContaining("':'");
    }
}
