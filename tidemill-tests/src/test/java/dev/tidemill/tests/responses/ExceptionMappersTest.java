package dev.tidemill.tests.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exception mappers in every execution mode: the most specific mapper wins, a
 * {@link dev.tidemill.ProblemException} is its problem, anything unmapped is a 500 problem without
 * detail (with {@code Type: message} in debug), and a mapper that throws is a 500.
 */
@Timeout(60)
class ExceptionMappersTest {
    static class AppException extends RuntimeException {
        AppException(String message) {
            super(message);
        }
    }

    static class NotFoundException extends AppException {
        NotFoundException(String message) {
            super(message);
        }
    }

    static class GoneException extends NotFoundException {
        GoneException(String message) {
            super(message);
        }
    }

    static class BrokenMapperException extends RuntimeException {}

    static final Map<String, Object> INTERNAL = Map.of("type", "about:blank", "title", "Internal Server Error", "status", 500);

    private static TestClient start(Setup setup, boolean debug) {
        return setup.start(b -> b.debug(debug), app -> {
            // Registered subclass first, then the superclass: registration order must not matter.
            app.exception(NotFoundException.class, (e, req) -> Response.status(404).text("not found: " + e.getMessage()));
            app.exception(AppException.class, (e, req) -> Response.status(400).text("app: " + e.getMessage()));
            app.exception(IOException.class, (e, req) -> Map.of("io", e.getMessage(), "path", req.path()));
            app.exception(BrokenMapperException.class, (e, req) -> {
                throw new IllegalStateException("the mapper itself failed");
            });
            app.get("/app", req -> {
                throw new AppException("a");
            });
            app.get("/not-found", req -> {
                throw new NotFoundException("b");
            });
            app.get("/gone", req -> {
                throw new GoneException("c");
            });
            app.get("/checked", req -> {
                throw new IOException("disk");
            });
            app.get("/problem", req -> {
                throw Problem.of(409, "Conflict", "detail").toException();
            });
            app.get("/problem-with-errors", req -> {
                throw new Problem("https://example.com/probs/stock", "Out of stock", 422, Optional.of("none left"),
                        List.of(new Problem.FieldError("stock", List.of("body", "qty"), "too many", Optional.of("9"))))
                        .toException();
            });
            app.get("/unmapped", req -> {
                throw new IllegalStateException("boom");
            });
            app.get("/unmapped-later", req -> CompletableFuture.supplyAsync(() -> {
                throw new IllegalStateException("boom");
            }, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)));
            app.get("/gone-later", req -> CompletableFuture.failedFuture(new GoneException("d")));
            app.get("/unmapped-checked", req -> {
                throw new Exception("checked boom");
            });
            app.get("/broken-mapper", req -> {
                throw new BrokenMapperException();
            });
            app.group("/filtered").filter((req, next) -> {
                throw new NotFoundException("from filter");
            }).get("/x", req -> "never");
            app.get("/ok", req -> "ok");
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> problem(TestResponse r, int status) {
        assertThat(r.status()).as("%s", r).isEqualTo(status);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        return r.json(Map.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void theMostSpecificMapperWins(Setup setup) {
        try (TestClient client = start(setup, false)) {
            try (Connection c = client.connect()) {
                TestResponse app = c.send(TestRequest.get("/app"));
                assertThat(app.status()).isEqualTo(400);
                assertThat(app.text()).isEqualTo("app: a");
                TestResponse nf = c.send(TestRequest.get("/not-found"));
                assertThat(nf.status()).isEqualTo(404);
                assertThat(nf.text()).isEqualTo("not found: b");
                TestResponse gone = c.send(TestRequest.get("/gone"));
                assertThat(gone.status()).as("nearest registered superclass").isEqualTo(404);
                assertThat(gone.text()).isEqualTo("not found: c");
                TestResponse goneLater = c.send(TestRequest.get("/gone-later"));
                assertThat(goneLater.status()).as("a failed stage goes to the same mapper").isEqualTo(404);
                assertThat(goneLater.text()).isEqualTo("not found: d");
                TestResponse io = c.send(TestRequest.get("/checked"));
                assertThat(io.status()).isEqualTo(200);
                assertThat(io.json(Map.class)).isEqualTo(Map.of("io", "disk", "path", "/checked"));
                TestResponse filtered = c.send(TestRequest.get("/filtered/x"));
                assertThat(filtered.status()).as("exceptions from filters are mapped too").isEqualTo(404);
                assertThat(filtered.text()).isEqualTo("not found: from filter");
                assertThat(c.send(TestRequest.get("/ok")).text()).isEqualTo("ok");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aProblemExceptionIsRenderedAsItsProblem(Setup setup) {
        try (TestClient client = start(setup, false)) {
            assertThat(problem(client.get("/problem"), 409)).isEqualTo(
                    Map.of("type", "about:blank", "title", "Conflict", "status", 409, "detail", "detail"));
            assertThat(problem(client.get("/problem-with-errors"), 422)).isEqualTo(Map.of(
                    "type", "https://example.com/probs/stock", "title", "Out of stock", "status", 422,
                    "detail", "none left",
                    "errors", List.of(Map.of("type", "stock", "loc", List.of("body", "qty"), "msg", "too many", "input", "9"))));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void anUnmappedExceptionIsA500ProblemWithoutDetail(Setup setup) {
        try (TestClient client = start(setup, false)) {
            try (Connection c = client.connect()) {
                for (String path : List.of("/unmapped", "/unmapped-checked", "/unmapped-later")) {
                    TestResponse r = c.send(TestRequest.get(path));
                    assertThat(problem(r, 500)).as(path).isEqualTo(INTERNAL);
                    assertThat(r.text()).doesNotContain("boom");
                }
                assertThat(c.send(TestRequest.get("/ok")).text()).as("the connection survives").isEqualTo("ok");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void debugAddsTypeAndMessageAsDetail(Setup setup) {
        try (TestClient client = start(setup, true)) {
            assertThat(problem(client.get("/unmapped"), 500)).isEqualTo(Map.of("type", "about:blank",
                    "title", "Internal Server Error", "status", 500, "detail", "java.lang.IllegalStateException: boom"));
            assertThat(problem(client.get("/unmapped-later"), 500)).as("the stage's cause, not a CompletionException")
                    .containsEntry("detail", "java.lang.IllegalStateException: boom");
            assertThat(problem(client.get("/unmapped-checked"), 500))
                    .containsEntry("detail", "java.lang.Exception: checked boom");
            // Mapped exceptions and problems are not affected by debug.
            assertThat(client.get("/app").text()).isEqualTo("app: a");
            assertThat(problem(client.get("/problem"), 409)).containsEntry("detail", "detail");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aMapperThatThrowsIsA500(Setup setup) {
        try (TestClient client = start(setup, false)) {
            try (Connection c = client.connect()) {
                TestResponse r = c.send(TestRequest.get("/broken-mapper"));
                assertThat(problem(r, 500)).isEqualTo(INTERNAL);
                assertThat(r.text()).doesNotContain("mapper itself");
                assertThat(c.send(TestRequest.get("/ok")).text()).as("the connection survives").isEqualTo("ok");
            }
        }
    }
}
