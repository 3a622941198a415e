package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Limits;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Category 10, compressed request bodies. Decided: Tidemill decodes {@code gzip}, {@code deflate},
 * {@code br} and {@code zstd} (up to two stacked), and the decoded bytes count against the body
 * limit, so every bomb stops at the limit with a 413 that names it; any other coding is refused
 * with 415 and {@code Accept-Encoding}. Each bomb inflates to 64 MiB, four times the default limit.
 */
@Timeout(120)
class CompressedBodiesTest extends OnHostileServer {
    static final String CAT = "10 compressed request bodies";
    private static final int BOMB_BYTES = 64 << 20;
    private static final byte[] HELLO = "hello, compressed world".getBytes(StandardCharsets.US_ASCII);
    private interface Encoder {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    private static byte[] encode(Encoder e, byte[] data) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream out = e.wrap(b)) {
            out.write(data);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return b.toByteArray();
    }

    /** {@code n} zero bytes through the encoder, written in pieces so the test never holds them. */
    private static byte[] bomb(Encoder e, int n) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream out = e.wrap(b)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < n / zeros.length; i++) out.write(zeros);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return b.toByteArray();
    }

    private static final Encoder GZIP = GZIPOutputStream::new;
    private static final Encoder DEFLATE = DeflaterOutputStream::new;
    private static final Encoder ZSTD = com.github.luben.zstd.ZstdOutputStreamNoFinalizer::new;

    private static byte[] resource(String name) {
        try (InputStream in = CompressedBodiesTest.class.getResourceAsStream("/hardening/" + name)) {
            if (in == null) throw new IllegalStateException("missing test resource hardening/" + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TestResponse post(String encoding, byte[] body) {
        try (RawConnection raw = server().client.raw()) {
            raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Encoding: " + encoding
                    + "\r\nContent-Length: " + body.length + "\r\n\r\n");
            raw.write(body);
            TestResponse r = raw.readResponse();
            raw.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.readResponse().text()).as("the connection stays usable after %s", encoding).isEqualTo("ok");
            return r;
        }
    }

    private static void assertBombRefused(String encoding, byte[] bomb) {
        assertThat(bomb.length).as("the bomb itself is small").isLessThan((int) Limits.DEFAULTS.maxBodyBytes());
        TestResponse r = post(encoding, bomb);
        assertThat(r.status()).as("%s bomb", encoding).isEqualTo(413);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        assertThat(r.jsonTree().get("detail").asString()).contains("maxBodyBytes");
        assertThat(server().client.get("/ok").status()).isEqualTo(200);
    }

    @Test
    void eachSupportedCodingDecodes() {
        assertThat(post("gzip", encode(GZIP, HELLO)).body()).isEqualTo(HELLO);
        assertThat(post("x-gzip", encode(GZIP, HELLO)).body()).isEqualTo(HELLO);
        assertThat(post("deflate", encode(DEFLATE, HELLO)).body()).isEqualTo(HELLO);
        assertThat(post("zstd", encode(ZSTD, HELLO)).body()).isEqualTo(HELLO);
        assertThat(post("br", resource("hello.br")).body()).isEqualTo("hello, brotli".getBytes(StandardCharsets.US_ASCII));
        assertThat(post("identity", HELLO).body()).isEqualTo(HELLO);
        assertThat(post("gzip, zstd", encode(ZSTD, encode(GZIP, HELLO))).body()).as("stacked, in order applied").isEqualTo(HELLO);
    }

    @Test
    void aGzipBombStopsAtTheBodyLimit() {
        assertBombRefused("gzip", bomb(GZIP, BOMB_BYTES));
    }

    @Test
    void aDeflateBombStopsAtTheBodyLimit() {
        assertBombRefused("deflate", bomb(DEFLATE, BOMB_BYTES));
    }

    @Test
    void aZstdBombStopsAtTheBodyLimit() {
        assertBombRefused("zstd", bomb(ZSTD, BOMB_BYTES));
    }

    @Test
    void aBrotliBombStopsAtTheBodyLimit() {
        assertBombRefused("br", resource("zeros-64MiB.br"));
    }

    @Test
    void aStackedBombStopsAtTheBodyLimit() {
        // gzip of a gzip bomb: small twice over, 64 MiB once both layers come off
        assertBombRefused("gzip, gzip", encode(GZIP, bomb(GZIP, BOMB_BYTES)));
    }

    @Test
    void unsupportedOrTooManyCodingsAre415WithAcceptEncoding() {
        for (String coding : new String[] {"compress", "snappy", "gzip, gzip, gzip", "xgzip"}) {
            TestResponse r = post(coding, HELLO);
            assertThat(r.status()).as(coding).isEqualTo(415);
            assertThat(r.header("Accept-Encoding")).as(coding).hasValue("gzip, deflate, br, zstd");
            assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        }
    }

    @Test
    void corruptDataIs400() {
        byte[] gz = encode(GZIP, HELLO);
        gz[gz.length / 2] ^= 0x55;
        gz[gz.length - 3] ^= 0x55; // and the CRC
        for (Object[] c : new Object[][] {{"gzip", gz}, {"deflate", HELLO}, {"zstd", HELLO}, {"br", HELLO}}) {
            TestResponse r = post((String) c[0], (byte[]) c[1]);
            assertThat(r.status()).as((String) c[0]).isEqualTo(400);
        }
    }
}
