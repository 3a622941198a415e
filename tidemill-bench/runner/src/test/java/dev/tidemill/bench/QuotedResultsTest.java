package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The figures README.md and docs/ quote from result files: every file they name is committed under
 * bench/results/, and next to each mention of a run whose preflight failed or whose tree had
 * uncommitted changes the page says so ({@link RunStatus#note()}). Prints, per quoted result file,
 * whether its run was clean, so the ones to measure again on a quiet host are listed in the build.
 */
class QuotedResultsTest {
    /** A result file named by its stamp, with or without the directory, suite and extension. */
    private static final Pattern STAMP = Pattern.compile("(?:bench/results/)?(\\d{8}T\\d{6}Z)((?:-[A-Za-z0-9]+)*)(\\.json|\\.md|\\.svg)?");
    /** Any other file under bench/results/ (a differential report, say). */
    private static final Pattern OTHER = Pattern.compile("bench/results/(?!\\d{8}T)([A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])");
    /** How far after a mention its note may stand, in characters, within the same paragraph or table row. */
    private static final int NEAR = 300;

    /** One mention of a result file on a page. */
    private record Mention(Path page, int line, Path file, String after) {}

    @Test
    void everyQuotedResultFileExistsAndEveryRunThatWasNotCleanSaysSoNextToIt() throws IOException {
        Path root = repositoryRoot();
        List<Mention> mentions = mentions(root);
        assertThat(mentions).as("README.md and docs/ quote result files").isNotEmpty();
        List<String> missing = new ArrayList<>(), unflagged = new ArrayList<>();
        Map<String, RunStatus> quoted = new TreeMap<>();
        for (Mention m : mentions) {
            String where = root.relativize(m.page()) + ":" + m.line();
            if (!Files.isRegularFile(m.file())) {
                missing.add(where + " names " + root.relativize(m.file()) + ", which is not there");
                continue;
            }
            if (!m.file().toString().endsWith(".json")) continue;
            RunStatus s = RunStatus.of(m.file());
            quoted.put(m.file().getFileName().toString(), s);
            if (!s.failedChecks().isEmpty() && !m.after().contains(RunStatus.NOT_CLEAN)) {
                unflagged.add(where + ": " + m.file().getFileName() + " needs \"(" + s.note() + ")\" next to it");
            } else if (s.uncommitted() && !m.after().contains(RunStatus.UNCOMMITTED)) {
                unflagged.add(where + ": " + m.file().getFileName() + " needs \"(" + s.note() + ")\" next to it");
            }
        }
        quoted.forEach((file, s) -> System.out.println("quoted " + file + ": commit " + s.commit() + ", "
                + (s.clean() ? "clean" : s.note()) + (known(root, s.commit()) ? "" : ", commit not in this repository's history")));
        assertThat(missing).as("result files named but not committed").isEmpty();
        assertThat(unflagged).as("figures from runs that were not clean, quoted without saying so").isEmpty();
        List<String> unknown = quoted.entrySet().stream().filter(e -> !known(root, e.getValue().commit()))
                .map(e -> e.getKey() + ": " + e.getValue().commit()).toList();
        if (gitHistory(root)) assertThat(unknown).as("result files of commits this repository does not have").isEmpty();
    }

    @Test
    void theStatusComesFromEveryInvocationsFingerprintAndPreflight(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("20261130T132509Z-full.json");
        Files.writeString(json, """
                {"fingerprint": {"gitCommit": "abc"},
                 "preflight": [{"name": "load per CPU", "verdict": "pass", "reading": "0.2 0.3 0.4 1/99 1 over 1 CPUs = 0.20"}],
                 "segments": [
                   {"fingerprint": {"gitCommit": "abc (with uncommitted changes)"},
                    "preflight": [{"name": "load per CPU", "verdict": "fail", "reading": "1.49 1.64 1.90 4/105 2 over 1 CPUs = 1.49"},
                                  {"name": "wrk", "verdict": "fail", "reading": "not on PATH"}]},
                   {"fingerprint": {"gitCommit": "abc"},
                    "preflight": [{"name": "load per CPU", "verdict": "fail", "reading": "1.7 1 1 1/1 1 over 1 CPUs = 1.70"}]}]}
                """);
        RunStatus s = RunStatus.of(json);
        assertThat(s.commit()).isEqualTo("abc");
        assertThat(s.clean()).isFalse();
        assertThat(s.note()).isEqualTo("preflight: load 1.70, wrk not on PATH, not clean; measured with uncommitted changes");
        Files.writeString(json, """
                {"fingerprint": {"gitCommit": "def"}, "preflight": [{"name": "steal", "verdict": "pass", "reading": "0.0 %"}]}
                """);
        assertThat(RunStatus.of(json).clean()).isTrue();
        assertThat(RunStatus.of(json).note()).isEmpty();
        // a mention is found by its stamp alone, with the suite, or as a path, and its note must follow it
        Path page = dir.resolve("page.md");
        Files.writeString(page, "From `bench/results/20261130T132509Z-full.json` (preflight: load 1.70, not clean).\n\n"
                + "| `20261130T132509Z-full.json` | +1.9 % |\n\nIn `20261130T132509Z` the row moved.\n");
        List<Mention> found = mentions(page, dir);
        assertThat(found).extracting(Mention::line).containsExactly(1, 3, 5);
        assertThat(found).allMatch(m -> m.file().equals(json));
        assertThat(found.get(0).after()).contains(RunStatus.NOT_CLEAN);
        assertThat(found.get(1).after()).isEqualTo("` | +1.9 % |");
        assertThat(found.get(2).after()).startsWith("` the row moved.");
    }

    /** @return every mention of a result file in README.md and docs/*.md */
    private static List<Mention> mentions(Path root) throws IOException {
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<Mention> out = new ArrayList<>();
        for (Path page : pages) out.addAll(mentions(page, root.resolve("bench/results")));
        return out;
    }

    /** @return the mentions on one page, each with the rest of its paragraph or table row (at most {@link #NEAR} characters) */
    private static List<Mention> mentions(Path page, Path results) throws IOException {
        String text = Files.readString(page);
        List<Mention> out = new ArrayList<>();
        Matcher m = STAMP.matcher(text);
        while (m.find()) {
            if (m.start() > 0 && Character.isLetterOrDigit(text.charAt(m.start() - 1))) continue;
            Path file = m.group(3) == null && m.group(2).isEmpty() ? byStamp(results, m.group(1))
                    : results.resolve(m.group(1) + m.group(2) + (m.group(3) == null ? ".json" : m.group(3)));
            out.add(new Mention(page, line(text, m.start()), file, after(text, m.end())));
        }
        Matcher o = OTHER.matcher(text);
        while (o.find()) out.add(new Mention(page, line(text, o.start()), results.resolve(o.group(1)), after(text, o.end())));
        out.sort(java.util.Comparator.comparingInt(Mention::line));
        return out;
    }

    /** @return the one JSON file of that stamp (a stamp alone names its run), or a name that does not exist */
    private static Path byStamp(Path results, String stamp) throws IOException {
        if (!Files.isDirectory(results)) return results.resolve(stamp + ".json");
        try (Stream<Path> s = Files.list(results)) {
            List<Path> json = s.filter(p -> p.getFileName().toString().startsWith(stamp + "-") && p.toString().endsWith(".json")).toList();
            return json.size() == 1 ? json.getFirst() : results.resolve(stamp + (json.isEmpty() ? "" : "-ambiguous") + ".json");
        }
    }

    /** @return what follows a mention up to the end of its table row or paragraph, at most {@link #NEAR} characters, spaces collapsed */
    private static String after(String text, int from) {
        int end = Math.min(text.length(), from + NEAR);
        int lineEnd = text.indexOf('\n', from);
        boolean tableRow = text.lastIndexOf('\n', from) + 1 < text.length() && text.charAt(text.lastIndexOf('\n', from) + 1) == '|';
        if (tableRow && lineEnd >= 0) end = Math.min(end, lineEnd);
        int paragraphEnd = text.indexOf("\n\n", from);
        if (paragraphEnd >= 0) end = Math.min(end, paragraphEnd);
        return text.substring(from, end).replaceAll("\\s+", " "); // a note may wrap
    }

    private static int line(String text, int at) {
        return (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }

    static Path repositoryRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("bench/results")))) p = p.getParent();
        assertThat(p).as("the repository root above " + Path.of("").toAbsolutePath()).isNotNull();
        return p;
    }

    /** @return whether git can answer for this checkout's history: installed, a repository, not shallow */
    private static boolean gitHistory(Path root) {
        return git(root, "rev-parse", "--is-shallow-repository").map(out -> out.strip().equals("false")).orElse(false);
    }

    private static boolean known(Path root, String commit) {
        return !gitHistory(root) || git(root, "cat-file", "-e", commit + "^{commit}").isPresent();
    }

    /** @return what git printed, when it ran and exited 0 */
    private static java.util.Optional<String> git(Path root, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", root.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? java.util.Optional.of(out) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }
}
