package dev.tidemill.internal.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Limits;
import dev.tidemill.ProblemException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The parser on well-formed bodies: framing, headers, names, file names, chunking. */
class MultipartParserTest {
    static final String B = "XyZ'()+_,-./:=?";

    static String part(String disposition, String content) {
        return "--" + B + "\r\nContent-Disposition: " + disposition + "\r\n\r\n" + content + "\r\n";
    }

    static String end() {
        return "--" + B + "--\r\n";
    }

    @Test
    void aFieldAndAFile() {
        String body = part("form-data; name=\"title\"", "Hello")
                + "--" + B + "\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.txt\"\r\nContent-Type: text/csv\r\n"
                + "X-Extra:  v  \r\n\r\na,b\r\n1,2\r\n" + end();
        List<Parsed> parts = Parsed.parse(B, body);
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0)).isEqualTo(Parsed.field("title", "Hello"));
        Parsed doc = parts.get(1);
        assertThat(doc.name()).isEqualTo("doc");
        assertThat(doc.filename()).hasValue("a.txt");
        assertThat(doc.contentType()).isEqualTo("text/csv");
        assertThat(doc.headers()).containsExactly(Map.entry("Content-Disposition", "form-data; name=\"doc\"; filename=\"a.txt\""),
                Map.entry("Content-Type", "text/csv"), Map.entry("X-Extra", "v"));
        assertThat(doc.content()).isEqualTo("a,b\r\n1,2");
    }

    @Test
    void defaultContentTypesFollowRfc7578() {
        List<Parsed> parts = Parsed.parse(B, part("form-data; name=a", "x") + part("form-data; name=b; filename=b.bin", "y") + end());
        assertThat(parts).extracting(Parsed::contentType).containsExactly("text/plain", "application/octet-stream");
    }

    @Test
    void everyChunkSizeGivesTheSameParts() {
        String body = "preamble\r\n" + part("form-data; name=\"a\"", "\r\n--" + B.substring(0, 5) + "\r\r\n-")
                + part("form-data; name=\"b\"; filename=\"\"", "") + "--" + B + "--";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        List<Parsed> whole = Parsed.parse(B, bytes, Limits.DEFAULTS, 0);
        assertThat(whole).hasSize(2);
        assertThat(whole.get(0).content()).isEqualTo("\r\n--" + B.substring(0, 5) + "\r\r\n-");
        for (int chunk = 1; chunk <= bytes.length; chunk++) {
            assertThat(Parsed.parse(B, bytes, Limits.DEFAULTS, chunk)).as("chunk %d", chunk).isEqualTo(whole);
        }
    }

    /**
     * Content drawn from the delimiter's own bytes (CR, LF, '-', the boundary's characters), so
     * near-misses of every length sit everywhere, including across the windows the Horspool scan
     * skips over and across chunk ends: parsed whole and in random chunks, every part's content
     * comes back exactly.
     */
    @Test
    void contentMadeOfTheDelimitersOwnBytesComesBackExactlyInAnyChunking() {
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 200; round++) {
            NearMisses form = nearMisses(random, 4, 300, 40, "ab");
            List<Parsed> whole = Parsed.parse(B, form.body(), Limits.DEFAULTS, 0);
            assertThat(whole).extracting(Parsed::content).as("round %d", round).containsExactlyElementsOf(form.contents());
            assertThat(Parsed.parseRandomly(B, form.body(), Limits.DEFAULTS, random)).as("round %d, random chunks", round).isEqualTo(whole);
        }
    }

    /**
     * The same near-misses in parts of up to 6,000 bytes, parsed whole and in chunks of 1,100 to
     * 7,919 bytes: large enough for the four-lane search, with delimiters and near-misses landing in
     * every lane, on lane edges and across chunk ends. Fails when a lane misses a delimiter, or
     * reports a later one before an earlier.
     */
    @Test
    void theFourLaneSearchFindsTheFirstDelimiterInEveryLane() {
        java.util.Random random = new java.util.Random(4);
        for (int round = 0; round < 150; round++) {
            NearMisses form = nearMisses(random, 5, 6000, 200, "abcdefgh");
            for (int chunk : new int[] {0, 1100, 3000, 7919}) {
                assertThat(Parsed.parse(B, form.body(), Limits.DEFAULTS, chunk)).extracting(Parsed::content)
                        .as("round %d, chunks of %d", round, chunk).containsExactlyElementsOf(form.contents());
            }
        }
    }

    /** A form whose parts' contents, in order, are {@code contents}. */
    record NearMisses(List<String> contents, byte[] body) {}

    /**
     * @return a form of up to {@code parts} parts, each up to {@code length} characters drawn from
     *     the delimiter's own bytes and {@code letters}, with the delimiter itself cut short by one
     *     to all but one of its bytes about once in {@code missEvery} characters
     */
    static NearMisses nearMisses(java.util.Random random, int parts, int length, int missEvery, String letters) {
        String alphabet = "\r\n-" + B + letters;
        List<String> contents = new java.util.ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (int p = 0; p < 1 + random.nextInt(parts); p++) {
            StringBuilder c = new StringBuilder();
            int n = random.nextInt(length);
            for (int i = 0; i < n; i++) {
                if (random.nextInt(missEvery) == 0) c.append(("\r\n--" + B).substring(0, 1 + random.nextInt(B.length() + 3)));
                else c.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String content = c.toString();
            if (("\r\n" + content + "\r\n").contains("\r\n--" + B)) continue; // a real delimiter: not content
            contents.add(content);
            body.append(part("form-data; name=\"p" + p + "\"", content));
        }
        body.append(end());
        return new NearMisses(contents, body.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void theMediaTypeIsMatchedInAsciiCaseOnly() {
        assertThat(Boundary.isFormData("multipart/form-data")).isTrue();
        assertThat(Boundary.isFormData(" Multipart/Form-Data ; boundary=x")).isTrue();
        assertThat(Boundary.isFormData("MULTIPART/FORM-DATA;boundary=x")).isTrue();
        assertThat(Boundary.isFormData("multipart/form-datax")).isFalse();
        assertThat(Boundary.isFormData("multipart/mixed; boundary=x")).isFalse();
        assertThat(Boundary.isFormData("mult\u0131part/form-data")).as("a dotless i is not an i").isFalse();
        assertThat(Boundary.isFormData("")).isFalse();
    }

    @Test
    void preambleEpiloguePaddingAndNoFinalCrlfAreAccepted() {
        String body = "This is the preamble.\r\n--" + B + " \t \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--"
                + B + "\t\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--" + B + "--  epilogue\r\n--" + B + "\r\nignored";
        assertThat(Parsed.parse(B, body)).containsExactly(Parsed.field("a", "1"), Parsed.field("b", "2"));
        assertThat(Parsed.parse(B, part("form-data; name=\"a\"", "1") + "--" + B + "--")).containsExactly(Parsed.field("a", "1"));
    }

    @Test
    void contentThatLooksLikeTheBoundaryIsContent() {
        String content = "x--" + B + "\r\n-" + B + "\r\n--" + B.substring(0, B.length() - 1) + "\r\n\r\n--";
        assertThat(Parsed.parse(B, part("form-data; name=\"a\"", content) + end())).containsExactly(Parsed.field("a", content));
    }

    @Test
    void emptyPartsAndAnEmptyForm() {
        assertThat(Parsed.parse(B, part("form-data; name=\"a\"", "") + part("form-data; name=\"a\"", "") + end()))
                .containsExactly(Parsed.field("a", ""), Parsed.field("a", ""));
        assertThat(Parsed.parse(B, "--" + B + "--\r\n")).isEmpty();
    }

    @Test
    void quotedStringsUnescapeOnlyQuotesAndParametersAreCaseInsensitive() {
        List<Parsed> parts = Parsed.parse(B, part("Form-Data; NAME=\"a\\\"b\\\\c\"; FileName=\"x y;z.txt\"", "v") + end());
        assertThat(parts.get(0).name()).isEqualTo("a\"b\\\\c"); // only \" is an escape: browsers send backslashes as they are
        assertThat(parts.get(0).filename()).hasValue("x y;z.txt");
    }

    @Test
    void filenameStarIsDecodedAndPreferred() {
        List<Parsed> parts = Parsed.parse(B, part("form-data; name=\"f\"; filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt", "1")
                + part("form-data; name=\"g\"; filename*=iso-8859-1'en'%E9t%E9.txt", "2") + end());
        assertThat(parts).extracting(Parsed::filename).containsExactly(Optional.of("€ rates.txt"), Optional.of("été.txt"));
    }

    @Test
    void namesAreUtf8() {
        List<Parsed> parts = Parsed.parse(B, part("form-data; name=\"prénom\"; filename=\"日本.txt\"", "1") + end());
        assertThat(parts.get(0).name()).isEqualTo("prénom");
        assertThat(parts.get(0).filename()).hasValue("日本.txt");
    }

    @Test
    void aBoundaryOf70CharactersAndAQuotedOneWithSpaces() {
        String b70 = "a".repeat(70);
        String body = "--" + b70 + "\r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--" + b70 + "--";
        assertThat(Boundary.of("multipart/form-data; boundary=" + b70)).isEqualTo(b70);
        assertThat(Parsed.parse(b70, body)).containsExactly(new Parsed("a", Optional.empty(), "text/plain",
                List.of(Map.entry("Content-Disposition", "form-data; name=a")), "v"));
        assertThat(Boundary.of("multipart/form-data; charset=utf-8; boundary=\"a b\"")).isEqualTo("a b");
    }

    @Test
    void directBuffersAreFedToo() {
        byte[] body = (part("form-data; name=\"a\"", "x".repeat(20_000)) + end()).getBytes(StandardCharsets.US_ASCII);
        StringBuilder content = new StringBuilder();
        MultipartParser p = new MultipartParser(B, Limits.DEFAULTS, new PartListener() {
            public void partBegin(PartHead head) { }
            public void partData(ByteBuffer data, int off, int len) { content.append(StandardCharsets.US_ASCII.decode(data.slice(off, len))); }
            public void partEnd() { }
        });
        ByteBuffer direct = ByteBuffer.allocateDirect(body.length).put(body).flip();
        p.feed(direct);
        p.finish();
        assertThat(p.complete()).isTrue();
        assertThat(content.toString()).isEqualTo("x".repeat(20_000));
        assertThat(direct.position()).isZero();
    }

    @Test
    void aRefusedParserRefusesEveryFurtherCall() {
        MultipartParser p = new MultipartParser(B, Limits.DEFAULTS, noop());
        byte[] bad = ("--" + B + "x").getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> p.feed(bad, 0, bad.length)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> p.feed(bad, 0, 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(p::finish).isInstanceOf(IllegalStateException.class);
    }

    static PartListener noop() {
        return new PartListener() {
            public void partBegin(PartHead head) { }
            public void partData(ByteBuffer data, int off, int len) { }
            public void partEnd() { }
        };
    }
}
