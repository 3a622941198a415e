package dev.tidemill.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs curl, a client that is not ours, for the tests that check Tidemill against it; fails without it. */
public final class Curl {
    private Curl() {}

    /**
     * @param dir the working directory (curl's stderr is kept there for the failure message)
     * @param args curl's arguments
     * @return curl's standard output; fails on a non-zero exit, and naming the package when curl is missing
     * @throws InterruptedException if interrupted while curl runs
     */
    public static String run(Path dir, String... args) throws InterruptedException {
        ExternalTool.CURL.require();
        List<String> command = new ArrayList<>();
        command.add("curl");
        command.addAll(List.of(args));
        Path stderr = dir.resolve("curl-stderr.txt");
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
            assertThat(p.exitValue()).as("%s: %s%s", command, out, Files.readString(stderr)).isZero();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            p.destroyForcibly();
        }
    }
}
