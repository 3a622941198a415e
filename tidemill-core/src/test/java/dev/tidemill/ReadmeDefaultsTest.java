package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's defaults table and docs/security.md's tables must say what {@link Limits#DEFAULTS},
 * {@link Timeouts#DEFAULTS} (and, in the README only, {@link Compression#DEFAULTS}), their ranges and the environment reader say: every field of both
 * records has a row in each, each row's default is the record's, the README's range is the one the
 * record checks, and each row names the field's environment variable (or {@code -} when it has none).
 */
class ReadmeDefaultsTest {

    /** README row label -> the record component it documents. */
    private static final Map<String, String> README_ROWS = rows(
            "concurrency per worker loop (queued + in flight)", "concurrencyPerLoop",
            "connections", "maxConnections",
            "request line", "maxRequestLineBytes",
            "header block", "maxHeaderBytes",
            "header count", "maxHeaderCount",
            "body", "maxBodyBytes",
            "pipelined requests per connection", "maxPipelined",
            "body drained after a refusal", "maxDrainBytes",
            "query parameters (or form fields) per request", "maxQueryPairs",
            "empty lines before a request line", "maxLeadingEmptyLines",
            "stacked content codings on a request body", "maxContentCodings",
            "JSON nesting depth", "maxJsonNestingDepth",
            "JSON number length (digits)", "maxJsonNumberLength",
            "JSON string length (characters)", "maxJsonStringLength",
            "accept backlog (`SO_BACKLOG`; the kernel caps it at `net.core.somaxconn`)", "acceptBacklog",
            "write buffer high-water mark (outbound bytes queued per connection)", "writeBufferHighWaterMark",
            "write buffer low-water mark (at most the high one)", "writeBufferLowWaterMark",
            "decoder chunk size", "decoderChunkBytes",
            "streamed body buffered between socket and handler", "bodyHighWaterBytes",
            "multipart parts per body", "maxParts",
            "multipart part header block", "maxPartHeaderBytes",
            "multipart text field value", "maxFieldBytes",
            "multipart file part", "maxFileBytes",
            "multipart file part kept in memory", "uploadMemoryBytes",
            "HTTP/2 concurrent streams per connection", "maxConcurrentStreams",
            "HTTP/2 stream flow-control window", "streamWindowBytes",
            "HTTP/2 largest frame", "maxFrameBytes",
            "HTTP/2 control frames queued for a client that does not read", "maxQueuedControlFrames",
            "HTTP/2 stream resets per 30 s (sent or received)", "maxResetsPerWindow",
            "request timeout (request read -> first response byte)", "request",
            "header read timeout", "headerRead",
            "idle keep-alive timeout", "idle",
            "body stall timeout", "bodyStall",
            "write stall timeout (response unsent, client reading none of it)", "writeStall",
            "drain of a refused request's body", "drain",
            "lingering close (reading and discarding after the last response and FIN)", "linger",
            "shutdown grace", "shutdownGrace",
            "idle keep-alive connection kept during a shutdown (a request arriving meanwhile is answered with `Connection: close`)", "shutdownIdle",
            "SSE ping (a stream that sent nothing for this long)", "ssePing",
            "response compression (br, zstd or gzip, as `Accept-Encoding` asks)", "enabled",
            "smallest full body compressed", "minBytes",
            "brotli level (`br`)", "brotliLevel",
            "zstd level", "zstdLevel",
            "gzip level", "gzipLevel");

    /** docs/security.md row label -> the record component it documents. */
    private static final Map<String, String> SECURITY_ROWS = rows(
            "concurrency per worker loop (queued + in flight)", "concurrencyPerLoop",
            "open connections", "maxConnections",
            "accept backlog (connections the kernel queues before they are accepted)", "acceptBacklog",
            "request line", "maxRequestLineBytes",
            "header block", "maxHeaderBytes",
            "header fields", "maxHeaderCount",
            "request body (after transfer and content decoding)", "maxBodyBytes",
            "pipelined requests per connection", "maxPipelined",
            "body drained after a refusal", "maxDrainBytes",
            "query parameters or form fields", "maxQueryPairs",
            "stacked content codings on a request body", "maxContentCodings",
            "empty lines before a request line", "maxLeadingEmptyLines",
            "JSON nesting depth", "maxJsonNestingDepth",
            "JSON number length (digits)", "maxJsonNumberLength",
            "JSON string length (characters)", "maxJsonStringLength",
            "response bytes queued per connection (write buffer high-water mark)", "writeBufferHighWaterMark",
            "queued bytes before reading resumes (write buffer low-water mark)", "writeBufferLowWaterMark",
            "request body piece handed on by the decoder", "decoderChunkBytes",
            "streamed request body held between socket and handler", "bodyHighWaterBytes",
            "parts in one multipart body", "maxParts",
            "header block of one multipart part", "maxPartHeaderBytes",
            "one multipart text field", "maxFieldBytes",
            "one multipart file part", "maxFileBytes",
            "one multipart file part in memory", "uploadMemoryBytes",
            "HTTP/2 streams open at once on a connection", "maxConcurrentStreams",
            "HTTP/2 stream window (request body a handler has not taken)", "streamWindowBytes",
            "HTTP/2 frame payload", "maxFrameBytes",
            "HTTP/2 control frames queued unread (SETTINGS/PING acks, resets)", "maxQueuedControlFrames",
            "HTTP/2 resets per 30 s, received or provoked (Rapid Reset, MadeYouReset)", "maxResetsPerWindow",
            "request (request read -> first response byte)", "request",
            "header read (first byte of a head -> its end)", "headerRead",
            "idle keep-alive", "idle",
            "body stall (gap between two body reads)", "bodyStall",
            "write stall (response pending, client taking none of it)", "writeStall",
            "drain of a refused request's body", "drain",
            "lingering close (after the last response and a FIN, reading and discarding until the client closes)", "linger",
            "shutdown grace", "shutdownGrace",
            "idle connection kept during a shutdown", "shutdownIdle",
            "SSE ping (a stream quiet for this long)", "ssePing");

    private static final Pattern VARIABLE = Pattern.compile("TIDEMILL_[A-Z0-9_]+");

    @Test
    void everyFieldOfLimitsAndTimeoutsHasARowInBothTables() {
        Set<String> fields = new TreeSet<>(defaults(Limits.DEFAULTS, Timeouts.DEFAULTS).keySet());
        Set<String> all = new TreeSet<>(defaults().keySet());
        assertThat(new TreeSet<>(README_ROWS.values())).as("README rows (compression too)").isEqualTo(all);
        assertThat(new TreeSet<>(SECURITY_ROWS.values())).as("docs/security.md rows").isEqualTo(fields);
        Set<String> numeric = new TreeSet<>(all);
        numeric.remove("enabled"); // a boolean has no range
        assertThat(new TreeSet<>(ranges().keySet())).as("a range per numeric field").containsAll(numeric);
    }

    @Test
    void theReadmeTableMatchesTheRecordsTheirRangesAndTheEnvironmentReader() throws Exception {
        String text = Files.readString(Path.of("..", "README.md"));
        Map<String, Object> defaults = defaults();
        Map<String, Range> ranges = ranges();
        Map<String, String> variables = EnvironmentConfig.variableByField();
        for (Map.Entry<String, String> row : README_ROWS.entrySet()) {
            String field = row.getValue();
            List<String> cells = row(text, row.getKey(), 5);
            Range range = ranges.get(field);
            Object value = defaults.get(field);
            if (value instanceof Boolean) {
                assertThat(cells.get(1)).as("README default of %s", field).isEqualTo(value.toString());
                assertThat(cells.get(2)).as("README range of %s", field).isEqualTo("true, false");
            } else {
                assertThat(cells.get(1)).as("README default of %s", field).isEqualTo(plain(value, range));
                assertThat(cells.get(2)).as("README range of %s", field).isEqualTo(range.span());
            }
            assertThat(cells.get(4)).as("README environment column of %s", field).isEqualTo(variableCell(variables.get(field)));
        }
    }

    @Test
    void theSecurityTablesMatchTheRecordsAndTheEnvironmentReader() throws Exception {
        String text = Files.readString(Path.of("..", "docs", "security.md"));
        Map<String, Object> defaults = defaults();
        Map<String, Range> ranges = ranges();
        Map<String, String> variables = EnvironmentConfig.variableByField();
        for (Map.Entry<String, String> row : SECURITY_ROWS.entrySet()) {
            String field = row.getValue();
            List<String> cells = row(text, row.getKey(), 4);
            assertThat(cells.get(1)).as("docs/security.md default of %s", field)
                    .isEqualTo(human(defaults.get(field), ranges.get(field)));
            assertThat(cells.get(3)).as("docs/security.md setting column of %s", field)
                    .isEqualTo(variableCell(variables.get(field)));
        }
    }

    @Test
    void everyVariableTheDocsNameExistsAndTheReadmeNamesEveryVariable() throws Exception {
        Set<String> known = EnvironmentConfig.variables().keySet();
        for (Path doc : List.of(Path.of("..", "README.md"), Path.of("..", "docs", "security.md"))) {
            Matcher m = VARIABLE.matcher(Files.readString(doc));
            Set<String> named = new LinkedHashSet<>();
            while (m.find()) named.add(m.group());
            named.remove("TIDEMILL_JAVA_OPTS"); // the launcher script's, not a setting
            assertThat(known).as("variables named in %s", doc).containsAll(named);
            if (doc.endsWith("README.md")) assertThat(named).as("variables the README names").containsAll(known);
        }
    }

    /** Finds the one table row starting with {@code label} and returns its cells. */
    private static List<String> row(String text, String label, int columns) {
        List<List<String>> found = new ArrayList<>();
        for (String line : text.lines().toList()) {
            if (!line.startsWith("| " + label + " | ")) continue;
            String inner = line.substring(2, line.length() - 2);
            found.add(List.of(inner.split(" \\| ", -1)));
        }
        assertThat(found).as("rows labelled '%s'", label).hasSize(1);
        assertThat(found.get(0)).as("cells of '%s'", label).hasSize(columns);
        return found.get(0);
    }

    private static String variableCell(String variable) {
        return variable == null ? "-" : "`" + variable + "`";
    }

    /** README style: {@code 8192 bytes}, {@code 1024}, {@code 30 s}, {@code 250 ms}. */
    private static String plain(Object value, Range range) {
        return switch (range.kind()) {
            case COUNT -> value.toString();
            case BYTES -> value + " bytes";
            case DURATION -> seconds((Duration) value);
        };
    }

    /** docs/security.md style: {@code 8 KiB}, {@code 1,024}, {@code 30 s}, {@code 250 ms}. */
    private static String human(Object value, Range range) {
        return switch (range.kind()) {
            case COUNT -> String.format(Locale.ROOT, "%,d", ((Number) value).longValue());
            case BYTES -> {
                long n = ((Number) value).longValue();
                if (n != 0 && n % (1 << 20) == 0) yield n / (1 << 20) + " MiB";
                if (n != 0 && n % (1 << 10) == 0) yield n / (1 << 10) + " KiB";
                yield String.format(Locale.ROOT, "%,d bytes", n);
            }
            case DURATION -> seconds((Duration) value);
        };
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** Every component of the three records of defaults, with its default. */
    private static Map<String, Object> defaults() {
        return defaults(Limits.DEFAULTS, Timeouts.DEFAULTS, Compression.DEFAULTS);
    }

    private static Map<String, Object> defaults(Object... records) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object record : records) {
            for (RecordComponent c : record.getClass().getRecordComponents()) {
                try {
                    assertThat(out.put(c.getName(), c.getAccessor().invoke(record))).as("%s unique", c.getName()).isNull();
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }

    /** The range constants of both records, by the field they bound. */
    private static Map<String, Range> ranges() {
        Map<String, Range> out = new HashMap<>();
        for (Class<?> type : List.of(Limits.class, Timeouts.class, Compression.class)) {
            for (Field f : type.getDeclaredFields()) {
                if (f.getType() != Range.class || !Modifier.isStatic(f.getModifiers())) continue;
                try {
                    Range r = (Range) f.get(null);
                    out.put(r.field(), r);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }

    private static Map<String, String> rows(String... labelThenField) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < labelThenField.length; i += 2) out.put(labelThenField[i], labelThenField[i + 1]);
        return out;
    }
}
