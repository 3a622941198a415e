package dev.tidemill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * nginx's log of requests on resumed TLS sessions ({@link Nginx#RESUMED_LOG} in the start's
 * directory): its TLS port logs a line {@code $ssl_session_reused $ssl_protocol $ssl_cipher} for
 * each request whose session was resumed ({@code r TLSv1.3 TLS_AES_256_GCM_SHA384}). The TLS suite
 * counts the lines before and after each of nginx's TLS windows, and records the difference
 * against the requests the client counted in the window ({@link Window}). A log that is not there
 * is an error, not zero: nginx opens it when it starts, so a missing one means the count was
 * never taken.
 */
final class ResumptionLog {
    /**
     * One window's count.
     *
     * @param round the round
     * @param target the target
     * @param caseId the case
     * @param requests requests answered in the window, as the client counted them
     * @param resumed of them, requests nginx logged on a resumed session
     */
    record Window(int round, String target, String caseId, long requests, long resumed) {
        /** @return the line the report prints */
        String describe() {
            return String.format(Locale.ROOT, "%s %s, round %d: %,d of %,d requests on resumed sessions", target, caseId, round, resumed,
                    requests);
        }
    }

    private final Path file;

    /** @param dir the start's directory, where nginx writes {@link Nginx#RESUMED_LOG} */
    ResumptionLog(Path dir) {
        this.file = dir.resolve(Nginx.RESUMED_LOG);
    }

    /** @return whether a target's TLS port writes this log: only nginx's config has it ({@link Nginx#tlsCommand}) */
    static boolean keptBy(TlsTargets.Spec spec) {
        return spec.kind().equals("native");
    }

    /**
     * @return requests logged on resumed sessions so far
     * @throws IllegalStateException when the log is missing or unreadable, or has a line of another format
     */
    long resumed() {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no " + file.getFileName() + " in " + file.getParent()
                    + ": nginx did not open its resumption log, so resumed sessions cannot be counted");
        }
        try {
            return resumed(Files.readAllLines(file));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param lines the log's lines
     * @return the lines of requests on resumed sessions ({@code r}); a {@code .} (a new session) counts nothing
     * @throws IllegalStateException naming the first line that is not {@code r|. <protocol> <cipher>}
     */
    static long resumed(List<String> lines) {
        long n = 0;
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).strip().split(" ");
            if (f.length != 3 || !(f[0].equals("r") || f[0].equals("."))) {
                throw new IllegalStateException(Nginx.RESUMED_LOG + " line " + (i + 1) + " is not '$ssl_session_reused $ssl_protocol "
                        + "$ssl_cipher': " + lines.get(i));
            }
            if (f[0].equals("r")) n++;
        }
        return n;
    }
}
