package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Auth;
import dev.tidemill.Requirement;
import dev.tidemill.Session;
import dev.tidemill.Sessions;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions in Redis over real sockets: two nodes with the same keys and one Redis are one site (a
 * session made on node A works on node B, and logging out on B ends it on A); while Redis is down a
 * request that needs its session gets 503 with Retry-After (fail closed), and once Redis is back
 * (on its append-only file) the session works again.
 */
class RedisSessionStoreTest {
    static final byte[] KEY = "redis-0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    static Tidemill node(RedisSessionStore store) {
        Tidemill app = Tidemill.create(TestClient.config().auth(Auth.sessions(Sessions.builder().key(KEY).store(store).build())).build());
        app.post("/login/{name}", req -> {
            Session s = req.session().orElseThrow();
            s.login(req.pathParam("name"), Set.of("notes"), Set.of());
            return "hello " + req.pathParam("name");
        });
        app.post("/logout", req -> {
            req.session().orElseThrow().logout();
            return "bye";
        });
        app.get("/me", req -> req.principal().orElseThrow().subject() + " via " + req.principal().orElseThrow().via())
                .requires(Requirement.authenticated());
        return app;
    }

    static String pair(TestResponse r) {
        String set = r.header("Set-Cookie").orElseThrow(() -> new AssertionError("no Set-Cookie in " + r));
        return set.substring(0, set.indexOf(';'));
    }

    @Test
    void aSessionMadeOnOneNodeWorksOnTheOtherAndFailsClosedWhileRedisIsDown() {
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"));
             RedisSessionStore storeA = RedisSessionStore.connect(redis.url());
             RedisSessionStore storeB = RedisSessionStore.connect(redis.url());
             TestClient a = TestClient.start(node(storeA));
             TestClient b = TestClient.start(node(storeB))) {
            TestResponse in = a.send(TestRequest.of("POST", "/login/ada"));
            assertThat(in.text()).isEqualTo("hello ada");
            String cookie = pair(in);
            assertThat(b.send(TestRequest.get("/me").header("Cookie", cookie)).text()).as("on the other node").isEqualTo("ada via session");

            redis.kill();
            TestResponse down = b.send(TestRequest.get("/me").header("Cookie", cookie));
            assertThat(down.status()).as("%s", down).isEqualTo(503);
            assertThat(down.header("Retry-After")).isPresent();
            assertThat(down.header("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));

            redis.start();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(java.time.Duration.ofMillis(200))
                    .until(() -> b.send(TestRequest.get("/me").header("Cookie", cookie)).status() == 200);
            TestResponse out = b.send(TestRequest.of("POST", "/logout").header("Cookie", cookie).header("Sec-Fetch-Site", "same-origin"));
            assertThat(out.text()).isEqualTo("bye");
            assertThat(a.send(TestRequest.get("/me").header("Cookie", cookie)).status()).as("logged out everywhere").isEqualTo(401);
        }
    }
}
