package dev.tidemill.bench;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Checks every endpoint's answer before a target is timed: status, content-type media type and the
 * exact body bytes (the page byte-identical to {@link PageData#reference()}), and that the invalid
 * POST is refused with 422. A target that answers wrong is not timed.
 */
public final class Verifier {
    private record Expectation(String method, String path, String body, int status, String mediaType, byte[] expected) {}

    private static final List<Expectation> ALL = List.of(
            new Expectation("GET", Scenario.PLAINTEXT_PATH, null, 200, "text/plain", Scenario.utf8(Scenario.PLAINTEXT_BODY)),
            new Expectation("GET", Scenario.JSON_PATH, null, 200, "application/json", Scenario.utf8(Scenario.JSON_BODY)),
            new Expectation("GET", Scenario.USER_PATH_PREFIX + "42", null, 200, "application/json", Scenario.utf8(Scenario.userBody(42))),
            new Expectation("POST", Scenario.VALIDATE_PATH, Scenario.VALIDATE_REQUEST, 200, "application/json",
                    Scenario.utf8(Scenario.VALIDATE_RESPONSE)),
            new Expectation("POST", Scenario.VALIDATE_PATH, Scenario.VALIDATE_INVALID_REQUEST, 422, null, null),
            new Expectation("GET", Scenario.PAGE_PATH, null, 200, "text/html", Scenario.utf8(PageData.reference())));

    private Verifier() {}

    /**
     * @param port the target's port on 127.0.0.1
     * @param plaintextOnly check only {@code /plaintext}
     * @return what differed, one line per endpoint; empty when every answer is right
     */
    public static List<String> check(int port, boolean plaintextOnly) {
        List<String> problems = new ArrayList<>();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            for (Expectation e : ALL) {
                if (plaintextOnly && !e.path.equals(Scenario.PLAINTEXT_PATH)) continue;
                String label = e.method + " " + e.path + (e.status == 422 ? " (invalid body)" : "");
                try {
                    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + e.path))
                            .timeout(Duration.ofSeconds(10));
                    if (e.body != null) {
                        b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(e.body));
                    }
                    HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                    String problem = compare(e, r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body());
                    if (problem != null) problems.add(label + ": " + problem);
                } catch (IOException ex) {
                    problems.add(label + ": " + ex);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    problems.add(label + ": interrupted");
                    break;
                }
            }
        }
        return problems;
    }

    /** Paths whose coding the browser-mix scenario reports: the page (compressible) and the API's small answers. */
    static final List<String> ENCODING_PROBES = List.of(Scenario.PAGE_PATH, Scenario.USER_PATH_PREFIX + "42", Scenario.JSON_PATH);

    /**
     * What a target answers to a browser's {@code Accept-Encoding}, per {@link #ENCODING_PROBES}
     * path: the {@code Content-Encoding} (or identity) and the body's length; a compressed body is
     * decoded (gzip, deflate, br, zstd) and compared with the expected bytes, so that a target
     * whose compression mangles the page is visible in the result.
     *
     * @param port the target's port on 127.0.0.1
     * @return one line per path, e.g. {@code /page: br, 1,335 bytes (decodes to the expected bytes)}
     */
    public static List<String> encodings(int port) {
        List<String> lines = new ArrayList<>();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            for (String path : ENCODING_PROBES) {
                Expectation e = ALL.stream().filter(x -> x.path.equals(path)).findFirst().orElseThrow();
                try {
                    HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .header("Accept-Encoding", ScenarioRun.BROWSER_ACCEPT_ENCODING).timeout(Duration.ofSeconds(10)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    String coding = r.headers().firstValue("content-encoding").orElse("identity").trim().toLowerCase(Locale.ROOT);
                    lines.add(encodingLine(path, coding, r.body(), e.expected));
                } catch (IOException ex) {
                    lines.add(path + ": " + ex);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return lines;
    }

    /**
     * @param path the path
     * @param coding its Content-Encoding, lower case ({@code identity} when none)
     * @param body the body as received
     * @param expected the decoded bytes it must equal
     * @return the report line
     */
    static String encodingLine(String path, String coding, byte[] body, byte[] expected) {
        String decoded;
        try {
            decoded = Arrays.equals(Decoders.decode(coding, body), expected) ? "decodes to the expected bytes"
                    : "DOES NOT DECODE TO THE EXPECTED BYTES";
        } catch (IOException | RuntimeException ex) {
            decoded = "cannot decode: " + ex.getMessage();
        }
        return String.format(Locale.ROOT, "%s: %s, %,d bytes (%s)", path, coding, body.length, decoded);
    }

    private static String compare(Expectation e, int status, String contentType, byte[] body) {
        if (status != e.status) return "status " + status + ", expected " + e.status + "; body " + snippet(body, 0);
        if (e.expected == null) return null;
        String media = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!media.equals(e.mediaType)) return "content-type '" + contentType + "', expected media type " + e.mediaType;
        if (Arrays.equals(body, e.expected)) return null;
        int at = Arrays.mismatch(body, e.expected);
        return "body differs at byte " + at + " (got " + body.length + " bytes, expected " + e.expected.length
                + "): got '" + snippet(body, at) + "', expected '" + snippet(e.expected, at) + "'";
    }

    private static String snippet(byte[] b, int at) {
        int from = Math.max(0, at - 20);
        int to = Math.min(b.length, at + 40);
        if (from >= to) return "";
        return new String(b, from, to - from, StandardCharsets.UTF_8).replace("\n", "\\n");
    }
}
