package dev.tidemill.tests.uploads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.OpenApi;
import dev.tidemill.Upload;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.MultipartBody;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every multipart limit and malformation over a socket, in every execution mode: the status, a
 * problem+json whose detail names the limit or the rule, and the same keep-alive connection
 * serving the next request. Also the declared media type of {@code Route.multipart/form/body}.
 */
@Timeout(60)
class MultipartLimitsTest {
    record Form(String a, List<String> more, Upload f) {}

    record Plain(String a) {}

    static Stream<Setup> modes() {
        return Setup.modes();
    }

    static TestClient start(Setup s) {
        return s.start(b -> b.maxParts(3).maxPartHeaderBytes(200).maxFieldBytes(10).maxFileBytes(100).maxBodyBytes(10_000),
                app -> {
                    app.post("/form", req -> req.body(Form.class).a());
                    app.post("/declared", req -> req.body(Form.class).a()).multipart(Form.class);
                    app.post("/urlencoded", req -> req.body(Plain.class).a()).form(Plain.class);
                    app.post("/json", req -> req.body(Plain.class).a()).body(Plain.class);
                    app.get("/ping", req -> "pong");
                    app.openApi(OpenApi.builder().ui(false).build());
                });
    }

    static TestRequest post(String path, MultipartBody body) {
        return TestRequest.of("POST", path).multipart(body);
    }

    static TestRequest raw(String contentType, String body) {
        return TestRequest.of("POST", "/form").body(contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    static MultipartBody form() {
        return MultipartBody.withBoundary("BB");
    }

    static Stream<Arguments> cases() {
        String ok = "Content-Disposition: form-data; name=\"a\"\r\n";
        return Stream.of(
                Arguments.of("at every limit", post("/form", form().field("a", "0123456789").field("more", "x")
                        .file("f", "f.bin", "application/octet-stream", new byte[100])), 200, "0123456789"),
                Arguments.of("maxParts", post("/form", form().field("a", "1").field("more", "2").field("more", "3").field("more", "4")),
                        413, "more than 3 parts (maxParts)"),
                Arguments.of("maxPartHeaderBytes", post("/form", form().part(ok + "X-Pad: " + "p".repeat(200) + "\r\n", new byte[1])),
                        413, "a part's headers are larger than 200 bytes (maxPartHeaderBytes)"),
                Arguments.of("maxFieldBytes", post("/form", form().field("a", "0123456789X")),
                        413, "field \"a\" is larger than 10 bytes (maxFieldBytes)"),
                Arguments.of("maxFileBytes", post("/form", form().file("f", "f.bin", "application/octet-stream", new byte[101])),
                        413, "file \"f\" is larger than 100 bytes (maxFileBytes)"),
                Arguments.of("missing boundary", raw("multipart/form-data", "--BB--\r\n"), 400, "without a boundary parameter"),
                Arguments.of("invalid boundary", raw("multipart/form-data; boundary=" + "b".repeat(71), "x"), 400, "invalid boundary parameter"),
                Arguments.of("no final boundary", raw("multipart/form-data; boundary=BB", "--BB\r\n" + ok + "\r\n1\r\n"),
                        400, "the body ended before the final boundary"),
                Arguments.of("header without colon", post("/form", form().part(ok + "nocolon\r\n", new byte[1])), 400, "without a colon"),
                Arguments.of("obs-fold", post("/form", form().part(ok + " folded\r\n", new byte[1])), 400, "obs-fold"),
                Arguments.of("no name", post("/form", form().part("Content-Disposition: form-data\r\n", new byte[1])), 400, "without a name"),
                Arguments.of("CRLF in filename*", post("/form", form().part("Content-Disposition: form-data; name=f; filename*=UTF-8''a%0D%0Ab\r\n",
                        new byte[1])), 400, "a control character (0xd) in a part's filename"),
                Arguments.of("bad filename*", post("/form", form().part("Content-Disposition: form-data; name=f; filename*=UTF-8''%ZZ\r\n",
                        new byte[1])), 400, "malformed percent-encoding"),
                Arguments.of("a file for a text component", post("/form", form().file("a", "a.txt", "text/plain", new byte[1])),
                        400, "part \"a\" is a file; its component is not an Upload"),
                Arguments.of("a text field for an Upload component", post("/form", form().field("f", "not a file")),
                        400, "Upload"),
                Arguments.of("declared multipart, JSON sent", TestRequest.of("POST", "/declared").body("application/json", "{\"a\":\"1\"}"),
                        415, "expected multipart/form-data"),
                Arguments.of("declared form, multipart sent", post("/urlencoded", form().field("a", "1")),
                        415, "expected application/x-www-form-urlencoded"),
                Arguments.of("declared JSON, multipart sent", post("/json", form().field("a", "1")), 415, "expected application/json"),
                Arguments.of("declared multipart, multipart sent", post("/declared", form().field("a", "ok")), 200, "ok"));
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void everyLimitAndMalformationNamesItselfAndTheConnectionServesOn(Setup s) {
        try (TestClient c = start(s); Connection conn = c.connect()) {
            for (Arguments a : cases().toList()) {
                Object[] x = a.get();
                String what = (String) x[0];
                TestResponse r = conn.send((TestRequest) x[1]);
                int status = (int) x[2];
                assertThat(r.status()).as("%s: %s", what, r).isEqualTo(status);
                if (status == 200) {
                    assertThat(r.text()).as(what).isEqualTo(x[3]);
                } else {
                    assertThat(r.header("Content-Type")).as(what).hasValue("application/problem+json");
                    assertThat((String) r.json(Map.class).get("detail")).as(what).contains((String) x[3]);
                }
                assertThat(conn.send(TestRequest.get("/ping")).text()).as("after %s, the same connection", what).isEqualTo("pong");
            }
            TestResponse over = c.send(post("/form", form().file("f", "f.bin", "application/octet-stream", new byte[10_001])));
            assertThat(over.status()).as("over maxBodyBytes, before any part is parsed").isEqualTo(413);
            assertThat(c.get("/ping").text()).isEqualTo("pong");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void openApiDescribesADeclaredMultipartBodyWithBinaryFiles(Setup s) {
        try (TestClient c = start(s)) {
            String doc = c.get("/openapi.json").text();
            assertThat(doc).contains("\"multipart/form-data\"");
            tools.jackson.databind.JsonNode tree = new tools.jackson.databind.ObjectMapper().readTree(doc);
            tools.jackson.databind.JsonNode schema = tree.at("/paths/~1declared/post/requestBody/content/multipart~1form-data/schema");
            assertThat(schema.isMissingNode()).as(doc).isFalse();
            String ref = schema.path("$ref").asString("");
            tools.jackson.databind.JsonNode form = ref.isEmpty() ? schema : tree.at(ref.substring(1));
            assertThat(form.at("/properties/f").toString()).as(doc).contains("\"format\":\"binary\"");
        }
    }
}
