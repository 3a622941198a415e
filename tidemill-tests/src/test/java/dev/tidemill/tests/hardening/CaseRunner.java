package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Runs one {@link HostileCase}: writes its bytes (a refused case with a smuggled request behind it
 * in the same write, a served one with a follow-up {@code GET /ok}), checks the answer, the
 * connection's fate and that nothing ran that should not have, then asks for {@code /ok} on a fresh
 * connection: the server must keep serving the next client.
 */
final class CaseRunner {
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(6);
    private static final String FOLLOW_UP = "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n";

    private CaseRunner() {}

    static void check(HostileServer server, HostileCase c) {
        server.reset();
        try (RawConnection raw = server.client.raw()) {
            Optional<TestResponse> answer;
            // A server that refuses a huge request mid-upload closes with unread input, which the
            // kernel turns into a reset that can cut our write or overtake the answer: allowed where
            // the case says so.
            try {
                raw.write(c.bytes() + (c.close() == HostileCase.Close.MUST ? HostileServer.SMUGGLED : FOLLOW_UP));
            } catch (java.io.UncheckedIOException reset) {
                assertThat(c.status()).as("%s: write cut (%s)", c, reset.getMessage()).isEqualTo(HostileCase.REFUSED_OR_CLOSED);
            }
            try {
                answer = raw.readResponseOrClose();
            } catch (java.io.UncheckedIOException reset) {
                notATimeout(reset);
                assertThat(c.status()).as("%s: reset (%s) where an answer was due", c, reset.getMessage())
                        .isEqualTo(HostileCase.REFUSED_OR_CLOSED);
                answer = Optional.empty();
            }
            expectAnswer(c, answer);
            if (c.close() == HostileCase.Close.MUST) {
                assertThat(raw.awaitClosed(CLOSE_WAIT)).as("%s: connection closed", c).isTrue();
                String after;
                try {
                    after = new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1);
                } catch (java.io.UncheckedIOException reset) {
                    notATimeout(reset);
                    after = "";
                }
                assertThat(after).as("%s: bytes after the refusal", c).isEmpty();
            } else {
                TestResponse next = raw.readResponse();
                assertThat(next.status()).as("%s: the request after it on the same connection", c).isEqualTo(200);
                assertThat(next.text()).as("%s: framing ended where ours did", c).isEqualTo("ok");
            }
        }
        if (!c.served()) assertThat(server.echoed).as("%s: a handler ran for the malformed request", c).hasValue(0);
        assertThat(server.smuggled).as("%s: the smuggled request ran", c).hasValue(0);
        assertThat(server.client.get("/ok").status()).as("%s: canary on a fresh connection", c).isEqualTo(200);
    }

    /** A reset may stand for a close; a read that timed out is a server that said nothing, and fails. */
    private static void notATimeout(java.io.UncheckedIOException e) {
        if (e.getCause() instanceof java.net.SocketTimeoutException) throw e;
    }

    private static void expectAnswer(HostileCase c, Optional<TestResponse> answer) {
        if (c.status() == HostileCase.CLOSED) {
            assertThat(answer).as("%s: closed without an answer", c).isEmpty();
            return;
        }
        if (c.status() == HostileCase.REFUSED_OR_CLOSED) {
            // Either outcome is one assertion; the close that both end in is asserted by the caller
            // (these cases are Close.MUST), so an answer that never comes cannot pass as "closed".
            assertThat(c.close()).as("%s: a case that may just close must be checked for the close", c).isEqualTo(HostileCase.Close.MUST);
            assertThat(answer).as("%s: a 4xx or a close without an answer", c).satisfiesAnyOf(
                    a -> assertThat(a).isEmpty(),
                    a -> assertThat(a).hasValueSatisfying(r -> assertThat(r.status()).as("%s -> %s", c, r).isBetween(400, 499)));
            return;
        }
        assertThat(answer).as("%s: an answer", c).isPresent();
        TestResponse r = answer.orElseThrow();
        assertThat(r.status()).as("%s -> %s", c, r).isEqualTo(c.status());
        if (c.status() >= 400) {
            assertThat(r.header("Content-Type")).as("%s: problem+json", c).hasValue("application/problem+json");
            assertThat(r.jsonTree().get("status").asInt()).as("%s: problem status", c).isEqualTo(c.status());
        }
        if (c.status() >= 400 && c.status() < 500) {
            // a 4xx names what was wrong; a 500 deliberately says nothing (debug off)
            var problem = r.jsonTree();
            String says = problem.has("detail") ? problem.get("detail").asString() : problem.has("errors") ? problem.get("errors").toString() : "";
            assertThat(says).as("%s: the problem names what was wrong (detail or errors)", c).isNotBlank();
        }
    }
}
