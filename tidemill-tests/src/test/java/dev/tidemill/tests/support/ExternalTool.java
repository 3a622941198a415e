package dev.tidemill.tests.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The programs this module's tests run that are not ours, each with the Debian package that has it.
 * {@code ./tidemill test} checks for every one before it builds (its {@code TEST_TOOLS} list, which
 * {@code LauncherToolCheckTest} holds to this one) and installs what is missing when run as root with
 * apt-get. A test that still finds one missing fails naming the package: a missing tool is a failure,
 * never a skip. Python and its websockets module are {@code dev.tidemill.tests.websocket.Python}'s.
 */
public enum ExternalTool {
    CURL("curl", "curl"),
    OPENSSL("openssl", "openssl"),
    SSLSCAN("sslscan", "sslscan"),
    NGHTTP("nghttp", "nghttp2-client"),
    H2LOAD("h2load", "nghttp2-client"),
    NODE("node", "nodejs"),
    NPM("npm", "npm");

    private final String program;
    private final String debianPackage;

    ExternalTool(String program, String debianPackage) {
        this.program = program;
        this.debianPackage = debianPackage;
    }

    /** @return the command name, as a test puts it first on a command line */
    public String program() {
        return program;
    }

    /** @return the Debian package that has the program */
    public String debianPackage() {
        return debianPackage;
    }

    /**
     * @return the program's path, from the first directory of {@code PATH} that has it
     * @throws AssertionError naming the package to install when no directory has it
     */
    public Path require() {
        return find().orElseThrow(() -> new AssertionError(program + " is not installed (not on the PATH); the test needs it: "
                + "apt-get install -y --no-install-recommends " + debianPackage + " (./tidemill test installs it when run as root)"));
    }

    private Optional<Path> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    /**
     * @param program a command name, e.g. {@code openssl}
     * @return the tool that has it
     * @throws IllegalArgumentException for a program this list does not hold (add it here and to the launcher's)
     */
    public static ExternalTool of(String program) {
        return Arrays.stream(values()).filter(t -> t.program.equals(program)).findFirst().orElseThrow(
                () -> new IllegalArgumentException(program + " is not an ExternalTool: list it here and in the launcher's TEST_TOOLS"));
    }
}
