package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link KnownNames}: shared strings only for exact bytes; every other name and method comes out as sent. */
class KnownNamesTest {
    private static String name(String sent) {
        byte[] head = ("xx" + sent + ": v").getBytes(StandardCharsets.ISO_8859_1);
        return KnownNames.name(head, 2, 2 + sent.length());
    }

    private static HttpMethod method(String sent) {
        byte[] head = (sent + " / HTTP/1.1").getBytes(StandardCharsets.ISO_8859_1);
        return KnownNames.method(head, 0, sent.length());
    }

    @Test
    void knownNamesAreSharedAndKeepTheirCase() {
        assertThat(name("Host")).isEqualTo("Host").isSameAs(name("Host"));
        assertThat(name("content-length")).isEqualTo("content-length").isSameAs(name("content-length"));
        assertThat(name("HOST")).isEqualTo("HOST");
        assertThat(name("Content-type")).isEqualTo("Content-type");
        assertThat(name("X-Custom-Header-That-Is-Long")).isEqualTo("X-Custom-Header-That-Is-Long");
        assertThat(name("Hosts")).isEqualTo("Hosts");
        assertThat(name("a")).isEqualTo("a");
    }

    @Test
    void methodsAreNettysConstantsOrAsSent() {
        assertThat(method("GET")).isSameAs(HttpMethod.GET);
        assertThat(method("POST")).isSameAs(HttpMethod.POST);
        assertThat(method("PUT")).isSameAs(HttpMethod.PUT);
        assertThat(method("PATCH")).isSameAs(HttpMethod.PATCH);
        assertThat(method("get").name()).isEqualTo("get");
        assertThat(method("PROPFIND").name()).isEqualTo("PROPFIND");
        assertThat(method("PUTS").name()).isEqualTo("PUTS");
    }
}
