package dev.tidemill.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the paths of the machine that wrote a result out of it: the checkout becomes relative
 * paths ({@code tidemill-core/target/...}, {@code ./} for a {@code file:} URI of it), the Maven
 * repository {@code ${maven.repo}}, the temporary directory {@code ${java.io.tmpdir}} and the home
 * directory {@code ~}. Command lines and class paths then read the same from any host, and a
 * committed result names no one's directories.
 */
final class MachinePaths {
    /** A path prefix and what it becomes. */
    private record Rule(Pattern prefix, String name) {}

    /** What may precede a path: the start, anything that is not part of a path, or a {@code file://} scheme. */
    private static final String START = "(?:(?<![A-Za-z0-9._/-])|(?<=file://))";
    /** What may follow a path prefix: a separator, or anything that cannot continue a file name. */
    private static final String END = "(?=/|$|[^A-Za-z0-9._-])";

    private final List<Rule> rules = new ArrayList<>();

    /**
     * @param checkout the repository root
     * @param mavenRepo the local Maven repository
     * @param tmp the temporary directory
     * @param home the home directory
     */
    MachinePaths(Path checkout, Path mavenRepo, Path tmp, Path home) {
        record Named(String path, String name) {}
        List<Named> named = new ArrayList<>();
        named.add(new Named(text(checkout), ""));
        named.add(new Named(text(mavenRepo), "${maven.repo}"));
        named.add(new Named(text(tmp), "${java.io.tmpdir}"));
        named.add(new Named(text(home), "~"));
        // the longest first: a checkout or the repository may lie under the home or temporary directory
        named.sort(Comparator.comparingInt((Named n) -> n.path().length()).reversed());
        for (Named n : named) {
            if (n.path().length() <= 1) continue; // "/" or nothing: every path would match
            String p = Pattern.quote(n.path());
            if (n.name().isEmpty()) {
                rules.add(new Rule(Pattern.compile("file://" + p + "/"), "./"));
                rules.add(new Rule(Pattern.compile(START + p + "/"), ""));
                rules.add(new Rule(Pattern.compile(START + p + END), "."));
            } else {
                rules.add(new Rule(Pattern.compile(START + p + END), n.name()));
            }
        }
    }

    /** @return the paths of this process: its working directory (the runner starts at the repository root) and so on */
    static MachinePaths here() {
        Path home = Path.of(System.getProperty("user.home"));
        return new MachinePaths(Path.of("").toAbsolutePath(), mavenRepo().orElse(home.resolve(".m2/repository")),
                Path.of(System.getProperty("java.io.tmpdir")), home);
    }

    /**
     * @param text a result file's JSON or Markdown
     * @return the same with the machine's paths replaced
     */
    String strip(String text) {
        String out = text;
        for (Rule r : rules) out = r.prefix().matcher(out).replaceAll(Matcher.quoteReplacement(r.name()));
        return out;
    }

    /**
     * The repository this runner's own Netty came from: {@code <repo>/io/netty/netty-common/<version>/<jar>}.
     * A property given to Maven ({@code -Dmaven.repo.local}) is not seen here, the class path is.
     */
    private static Optional<Path> mavenRepo() {
        try {
            Path jar = Path.of(io.netty.util.Version.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path artifact = jar.getParent() == null ? null : jar.getParent().getParent();
            if (artifact == null || !artifact.endsWith(Path.of("io", "netty", "netty-common")) || !Files.isRegularFile(jar)) {
                return Optional.empty();
            }
            return Optional.of(artifact.getParent().getParent().getParent());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String text(Path p) {
        String s = p.toAbsolutePath().normalize().toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
