package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a {@link Result} as {@code <UTC>-<suite>.json} with the Markdown table ({@code .md}) and
 * the chart ({@code .svg}) next to it, and reads results back for the report. What it writes names
 * no path of this machine ({@link MachinePaths}): class paths and command lines are relative to
 * the checkout, the Maven repository and the temporary directory.
 */
public final class ResultFile {
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final MachinePaths PATHS = MachinePaths.here();

    private ResultFile() {}

    /**
     * @param result the result
     * @param dir the results directory (created if missing)
     * @return the JSON file written
     */
    public static Path write(Result result, Path dir) {
        String base = STAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + result.suite();
        try {
            Files.createDirectories(dir);
            Path json = dir.resolve(base + ".json");
            Files.writeString(json, PATHS.strip(MAPPER.writeValueAsString(result)));
            Files.writeString(dir.resolve(base + ".md"), PATHS.strip("# Tidemill bench, " + result.suite() + " suite, "
                    + result.startedUtc() + "\n\n" + MarkdownTable.of(result.summary())));
            Files.writeString(dir.resolve(base + ".svg"), PATHS.strip(SvgChart.of(result.summary(),
                    "Tidemill bench (" + result.suite() + "): median req/s, ratio to the Netty baseline")));
            return json;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param dir the results directory
     * @param suite the suite name
     * @return where a run started now keeps its checkpoint: {@code <UTC>-<suite>-partial.json}
     */
    public static Path checkpointPath(Path dir, String suite) {
        return dir.resolve(STAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + suite + "-partial.json");
    }

    /**
     * Writes the rounds measured so far (JSON only), replacing the previous checkpoint atomically.
     *
     * @param result the result so far
     * @param file the checkpoint file
     */
    public static void writeCheckpoint(Result result, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, PATHS.strip(MAPPER.writeValueAsString(result)));
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the result of one of the other suites (sweep, imbalance, overload, memory) as
     * {@code <UTC>-<suite>.json} with its Markdown next to it.
     *
     * @param dir the results directory (created if missing)
     * @param suite the suite name in the file name ({@code overload}, {@code memory-quick}...)
     * @param result the result record
     * @param markdown the Markdown page
     * @return the JSON file
     */
    public static Path write(Path dir, String suite, Object result, String markdown) {
        String base = STAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + suite;
        try {
            Files.createDirectories(dir);
            Path json = dir.resolve(base + ".json");
            Files.writeString(json, PATHS.strip(MAPPER.writeValueAsString(result)));
            Files.writeString(dir.resolve(base + ".md"), PATHS.strip(markdown));
            return json;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param json a result file of any suite
     * @param type its record type
     * @param <T> the type
     * @return the result
     */
    public static <T> T read(Path json, Class<T> type) {
        try {
            return MAPPER.readValue(Files.readString(json), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param json a result file
     * @return the result
     */
    public static Result read(Path json) {
        try {
            return MAPPER.readValue(Files.readString(json), Result.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param json a result file of any suite
     * @return the commit its fingerprint records ({@code gitCommit}), or "unknown"
     */
    public static String gitCommitOf(Path json) {
        try {
            tools.jackson.databind.JsonNode commit = MAPPER.readTree(Files.readString(json)).path("fingerprint").path("gitCommit");
            return commit.isString() ? commit.asString() : "unknown";
        } catch (IOException | tools.jackson.core.JacksonException e) {
            return "unknown";
        }
    }

    /**
     * @param json a result file
     * @param key a fingerprint key ({@code cpuModel}, {@code cores}, ...)
     * @return its value as text, or {@code unknown}
     */
    public static String fingerprintOf(Path json, String key) {
        try {
            tools.jackson.databind.JsonNode v = MAPPER.readTree(Files.readString(json)).path("fingerprint").path(key);
            return v.isMissingNode() || v.isNull() ? "unknown" : v.asString();
        } catch (IOException | tools.jackson.core.JacksonException e) {
            return "unknown";
        }
    }

    /**
     * @param dir the results directory
     * @param suite the suite name
     * @return the newest result file of that suite (names sort by time)
     */
    public static Optional<Path> latest(Path dir, String suite) {
        if (!Files.isDirectory(dir)) return Optional.empty();
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(p -> p.getFileName().toString().endsWith("-" + suite + ".json")).toList();
            return files.stream().max(Comparator.comparing(p -> p.getFileName().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
