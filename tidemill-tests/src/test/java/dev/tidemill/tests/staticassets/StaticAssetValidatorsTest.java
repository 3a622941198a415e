package dev.tidemill.tests.staticassets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.StaticAssets;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conditional and range requests on a static asset: 304 by entity-tag (weak comparison, lists,
 * {@code *}) and by date ({@code If-Modified-Since} ignored when {@code If-None-Match} is present),
 * one range per request (206 with {@code Content-Range}; 416 with {@code bytes *}/length; several
 * ranges: 200 whole), {@code If-Range} by entity-tag and by date, ranges only of the identity form.
 */
@Timeout(60)
class StaticAssetValidatorsTest {
    @TempDir
    Path dir;
    private StaticAssets assets;
    private TestClient c;
    private String href;
    private byte[] js;

    @BeforeEach
    void start() throws Exception {
        assets = StaticAssets.builder().directory(StaticAssetsTest.site(dir)).build();
        c = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.assets("/assets", assets));
        href = assets.href("app.js");
        js = StaticAssetsTest.JS.getBytes(StandardCharsets.UTF_8);
    }

    @AfterEach
    void stop() {
        c.close();
    }

    private TestResponse get(String... headers) {
        TestRequest r = TestRequest.get(href);
        for (int i = 0; i < headers.length; i += 2) r = r.header(headers[i], headers[i + 1]);
        return c.send(r);
    }

    @Test
    void notModifiedByEntityTag() {
        TestResponse full = get();
        String etag = full.header("ETag").orElseThrow();
        TestResponse r = get("If-None-Match", etag);
        assertThat(r.status()).isEqualTo(304);
        assertThat(r.body()).isEmpty();
        assertThat(r.header("ETag")).contains(etag);
        assertThat(r.header("Cache-Control")).contains("public, max-age=31536000, immutable");
        assertThat(r.header("Vary")).contains("Accept-Encoding");
        assertThat(r.header("Content-Length")).isEmpty();
        assertThat(get("If-None-Match", "W/" + etag).status()).as("weak comparison").isEqualTo(304);
        assertThat(get("If-None-Match", "\"other\", " + etag).status()).as("a list").isEqualTo(304);
        assertThat(get("If-None-Match", "*").status()).isEqualTo(304);
        assertThat(get("If-None-Match", "\"other\"").status()).isEqualTo(200);
        // the br form has its own tag: the identity tag does not validate it, its own does
        String brTag = get("Accept-Encoding", "br").header("ETag").orElseThrow();
        assertThat(get("Accept-Encoding", "br", "If-None-Match", etag).status()).isEqualTo(200);
        assertThat(get("Accept-Encoding", "br", "If-None-Match", brTag).status()).isEqualTo(304);
        assertThat(c.send(TestRequest.of("HEAD", href).header("If-None-Match", etag)).status()).isEqualTo(304);
    }

    @Test
    void notModifiedByDateUnlessAnEntityTagIsAsked() {
        String lastModified = get().header("Last-Modified").orElseThrow();
        ZonedDateTime t = ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME);
        String later = DateTimeFormatter.RFC_1123_DATE_TIME.format(t.plusHours(1).withZoneSameInstant(ZoneOffset.UTC));
        String earlier = DateTimeFormatter.RFC_1123_DATE_TIME.format(t.minusHours(1).withZoneSameInstant(ZoneOffset.UTC));
        assertThat(get("If-Modified-Since", lastModified).status()).isEqualTo(304);
        assertThat(get("If-Modified-Since", later).status()).isEqualTo(304);
        assertThat(get("If-Modified-Since", earlier).status()).isEqualTo(200);
        assertThat(get("If-Modified-Since", "yesterday").status()).as("not a date: ignored").isEqualTo(200);
        assertThat(get("If-Modified-Since", later, "If-None-Match", "\"other\"").status())
                .as("If-None-Match present: If-Modified-Since is ignored").isEqualTo(200);
    }

    @Test
    void oneRangeIsPartialContent() {
        int len = js.length;
        TestResponse r = get("Range", "bytes=10-19");
        assertThat(r.status()).isEqualTo(206);
        assertThat(r.header("Content-Range")).contains("bytes 10-19/" + len);
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(js, 10, 20));
        assertThat(r.header("ETag")).isEqualTo(get().header("ETag"));
        assertThat(r.header("Content-Type")).contains("text/javascript; charset=utf-8");

        TestResponse open = get("Range", "bytes=" + (len - 5) + "-");
        assertThat(open.status()).isEqualTo(206);
        assertThat(open.body()).isEqualTo(Arrays.copyOfRange(js, len - 5, len));
        TestResponse suffix = get("Range", "bytes=-7");
        assertThat(suffix.header("Content-Range")).contains("bytes " + (len - 7) + "-" + (len - 1) + "/" + len);
        assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(js, len - 7, len));
        TestResponse past = get("Range", "bytes=0-99999999");
        assertThat(past.status()).isEqualTo(206);
        assertThat(past.body()).isEqualTo(js);
        TestResponse whole = get("Range", "bytes=-99999999");
        assertThat(whole.header("Content-Range")).contains("bytes 0-" + (len - 1) + "/" + len);
    }

    @Test
    void unsatisfiableAndIgnoredRanges() {
        int len = js.length;
        TestResponse r = get("Range", "bytes=" + len + "-");
        assertThat(r.status()).isEqualTo(416);
        assertThat(r.header("Content-Range")).contains("bytes */" + len);
        assertThat(get("Range", "bytes=-0").status()).isEqualTo(416);
        assertThat(get("Range", "bytes=0-1,5-6").status()).as("several ranges: the whole asset").isEqualTo(200);
        TestResponse bomb = get("Range", "bytes=" + "0-,".repeat(1000) + "0-");
        assertThat(bomb.status()).as("1,000 overlapping ranges").isEqualTo(200);
        assertThat(bomb.body()).isEqualTo(js);
        assertThat(get("Range", "bytes=5-1").status()).as("invalid: ignored").isEqualTo(200);
        assertThat(get("Range", "items=0-1").status()).as("another unit: ignored").isEqualTo(200);
        assertThat(get("Range", "bytes=a-b").status()).isEqualTo(200);
        TestResponse coded = get("Range", "bytes=0-9", "Accept-Encoding", "gzip");
        assertThat(coded.status()).as("a coded form is sent whole").isEqualTo(200);
        assertThat(coded.header("Content-Encoding")).contains("gzip");
        assertThat(c.send(TestRequest.of("HEAD", href).header("Range", "bytes=0-9")).status()).as("ranges are for GET").isEqualTo(200);
    }

    @Test
    void ifRangeByEntityTagAndByDate() {
        TestResponse full = get();
        String etag = full.header("ETag").orElseThrow();
        String date = full.header("Last-Modified").orElseThrow();
        assertThat(get("Range", "bytes=0-3", "If-Range", etag).status()).isEqualTo(206);
        assertThat(get("Range", "bytes=0-3", "If-Range", "\"changed\"").status()).isEqualTo(200);
        assertThat(get("Range", "bytes=0-3", "If-Range", "W/" + etag).status()).as("strong comparison").isEqualTo(200);
        assertThat(get("Range", "bytes=0-3", "If-Range", date).status()).isEqualTo(206);
        assertThat(get("Range", "bytes=0-3", "If-Range", "Thu, 01 Jan 1970 00:00:00 GMT").status()).isEqualTo(200);
        TestResponse changed = get("Range", "bytes=0-3", "If-Range", "\"changed\"");
        assertThat(changed.body()).isEqualTo(js);
    }
}
