package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerificationTest {

    @Test
    void aTargetAnsweringADifferentBodyIsRefusedWithWhatDiffered() throws Exception {
        HttpServer wrong = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        wrong.createContext("/", ex -> {
            byte[] body = "Hello, world!".getBytes(StandardCharsets.UTF_8); // lower-case w
            ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        wrong.start();
        try {
            List<String> problems = Verifier.check(wrong.getAddress().getPort(), false);
            assertThat(problems).anyMatch(p -> p.startsWith("GET /plaintext: body differs at byte 7"));
            assertThat(problems).anyMatch(p -> p.startsWith("GET /json: content-type"));
            assertThat(problems).anyMatch(p -> p.startsWith("POST /validate (invalid body): status 200, expected 422"));
            assertThat(Verifier.check(wrong.getAddress().getPort(), true)).hasSize(1);
        } finally {
            wrong.stop(0);
        }
    }
}
