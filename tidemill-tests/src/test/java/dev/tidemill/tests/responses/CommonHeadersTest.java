package dev.tidemill.tests.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The {@code Server} header is configurable (empty omits it); {@code Date} is an IMF-fixdate. */
@Timeout(30)
class CommonHeadersTest {
    private static final Setup SETUP = Setup.onDefaultTransport(ExecutionMode.IO);

    @Test
    void serverHeaderIsConfigurable() {
        try (TestClient client = SETUP.start(b -> b.serverHeader("Acme/1.0"), app -> app.get("/", req -> "x"))) {
            assertThat(client.get("/").header("Server")).hasValue("Acme/1.0");
            assertThat(client.get("/missing").header("Server")).as("problems too").hasValue("Acme/1.0");
        }
    }

    @Test
    void anEmptyServerHeaderIsOmitted() {
        try (TestClient client = SETUP.start(b -> b.serverHeader(""), app -> app.get("/", req -> "x"))) {
            assertThat(client.get("/").header("Server")).isEmpty();
        }
    }

    @Test
    void dateIsAnImfFixdateCloseToNow() {
        try (TestClient client = SETUP.start(app -> app.get("/", req -> "x"))) {
            TestResponse r = client.get("/");
            String date = r.header("Date").orElseThrow();
            assertThat(date).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
            ZonedDateTime parsed = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME);
            assertThat(parsed).isBetween(ZonedDateTime.now().minusMinutes(1), ZonedDateTime.now().plusMinutes(1));
        }
    }
}
