package dev.tidemill.tests.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The smallest app answers text and JSON with the common headers, on every transport and mode. */
@Timeout(60)
class HelloWorldTest {
    record Message(String message) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void answersTextAndJsonOverKeepAlive(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.get("/plaintext", req -> "Hello, World!");
            app.get("/json", req -> new Message("Hello, World!"));
        })) {
            assertThat(client.server().transport()).isEqualTo(setup.transport());
            try (Connection c = client.connect()) {
                for (int i = 0; i < 3; i++) {
                    TestResponse text = c.send(TestRequest.get("/plaintext"));
                    assertThat(text.status()).isEqualTo(200);
                    assertThat(text.text()).isEqualTo("Hello, World!");
                    assertThat(text.header("Content-Type")).hasValue("text/plain; charset=utf-8");
                    assertThat(text.header("Content-Length")).hasValue("13");
                    assertThat(text.header("Server")).hasValue("Tidemill");
                    assertThat(text.header("Date")).hasValueSatisfying(d -> assertThat(d).endsWith(" GMT"));
                    TestResponse json = c.send(TestRequest.get("/json"));
                    assertThat(json.header("Content-Type")).hasValue("application/json");
                    assertThat(json.text()).isEqualTo("{\"message\":\"Hello, World!\"}");
                }
                assertThat(c.send(TestRequest.get("/plaintext")).text()).as("the connection still serves").isEqualTo("Hello, World!");
            }
        }
    }
}
