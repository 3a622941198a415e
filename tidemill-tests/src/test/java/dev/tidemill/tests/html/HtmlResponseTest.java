package dev.tidemill.tests.html;

import static dev.tidemill.html.Tags.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A handler that returns an Html page: 200 text/html, the bytes the builder renders, in every mode; HEAD keeps the length. */
class HtmlResponseTest {

    static dev.tidemill.html.Html page(String who) {
        return document(head(title("Rows for ", who)),
                body(table(IntStream.range(0, 200).mapToObj(i -> tr(td(i), td("<row & " + i + ">"))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aPageIsServedAsHtml(Setup setup) {
        try (TestClient client = setup.start(app -> app.get("/page", req -> page(req.query("who").orElse("?"))))) {
            TestResponse r = client.get("/page?who=%3Cscript%3E");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Type")).hasValue("text/html; charset=utf-8");
            String body = r.text();
            assertThat(body).startsWith("<!DOCTYPE html><html><head><title>Rows for &lt;script&gt;</title>");
            assertThat(body).contains("<tr><td>199</td><td>&lt;row &amp; 199&gt;</td></tr>").doesNotContain("<script>");
            assertThat(r.header("Content-Length")).hasValue(Integer.toString(body.getBytes(StandardCharsets.UTF_8).length));
            TestResponse head = client.head("/page?who=x");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
        }
    }
}
