package dev.tidemill.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TLS suite's load generators, each pinned to the generator CPUs, and what they print, parsed:
 * wrk for HTTP/1.1 (plain and TLS, keep-alive; {@link WrkResult}), h2load for h2 and h2c
 * ({@link #parseH2load}), and {@code openssl s_time -new} for full handshakes
 * ({@link #parseSTime}). Why not wrk with {@code Connection: close} for handshakes: it reconnects
 * per response, but keeps its {@code SSL} object across reconnects ({@code SSL_clear}), so it offers
 * the previous session back and the server resumes it; h2load's reconnects resume too.
 * {@code s_time -new} makes a new {@code SSL} without a session for every connection, so it cannot
 * resume. Every run counts it on nginx ({@link ResumptionLog}): a handshake window with a resumed
 * session fails the run.
 */
final class TlsLoad {
    private TlsLoad() {}

    /**
     * What one load window gave.
     *
     * @param requests requests answered 2xx (handshake cases: connections, each one request)
     * @param seconds the window as the client measured it
     * @param errors failed, errored, timed-out and non-2xx requests, socket errors, failed clients
     * @param protocol the application protocol the client reports (h2load), or empty
     * @param details TLS protocol and cipher (h2load), bytes per connection (s_time), or empty
     * @param problems why a window's numbers cannot be trusted
     */
    record Load(long requests, double seconds, long errors, String protocol, String details, List<String> problems) {
        /** @return requests per second */
        double requestsPerSec() {
            return seconds > 0 ? requests / seconds : Double.NaN;
        }
    }

    /** @return the wrk command: one thread per generator CPU at most, keep-alive, {@code --latency} */
    static List<String> wrk(String cpus, String url, int connections, int seconds) {
        return List.of("taskset", "-c", cpus, "wrk", "-t1", "-c" + connections, "-d" + seconds + "s", "--latency", "--timeout", "8s", url);
    }

    /** @return the h2load command: one thread, timing-based ({@code -D}); over TLS ALPN offers only h2 */
    static List<String> h2load(String cpus, String url, int connections, int streams, int seconds) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, "h2load", "-t1", "-c" + connections, "-m" + streams,
                "-D", Integer.toString(seconds)));
        if (url.startsWith("https:")) cmd.add("--npn-list=h2"); // h2load 1.52 names its ALPN list --npn-list
        cmd.add(url);
        return cmd;
    }

    /**
     * What {@code s_time -www} is given. It writes {@code "GET " + page + " HTTP/1.0\r\n\r\n"}, and some
     * servers (Helidon 4) answer no HTTP/1.0 request, so the page carries the rest of an HTTP/1.1
     * request with {@code Host} and {@code Connection: close}; s_time's own version becomes a header value.
     */
    static final String S_TIME_PAGE = "/plaintext HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Padding:";

    /** @return the bytes s_time sends on every connection */
    static String handshakeRequest() {
        return "GET " + S_TIME_PAGE + " HTTP/1.0\r\n\r\n";
    }

    /** @return one {@code openssl s_time} process: a new session (full handshake) per connection, one request ({@link #S_TIME_PAGE}) */
    static List<String> sTime(String cpus, int port, int seconds) {
        return List.of("taskset", "-c", cpus, "openssl", "s_time", "-connect", "127.0.0.1:" + port, "-new", "-time",
                Integer.toString(seconds), "-www", S_TIME_PAGE);
    }

    /**
     * Parses h2load's summary (nghttp2 1.52).
     *
     * @param out what it printed
     * @return the numbers; problems if it printed no summary
     */
    static Load parseH2load(String out) {
        Matcher fin = Pattern.compile("finished in ([\\d.]+)(us|ms|s|m|h), ([\\d.]+) req/s").matcher(out);
        Matcher req = Pattern.compile("requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, "
                + "(\\d+) errored, (\\d+) timeout").matcher(out);
        Matcher codes = Pattern.compile("status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx").matcher(out);
        if (!fin.find() || !req.find()) return new Load(0, 0, 1, "", "", List.of("no h2load summary: " + lastLines(out, 3)));
        double seconds = WrkResult.micros(fin.group(1), fin.group(2)) / 1e6;
        long twoXx = Long.parseLong(req.group(4)), non2xx = 0;
        if (codes.find()) {
            twoXx = Long.parseLong(codes.group(1));
            non2xx = Long.parseLong(codes.group(2)) + Long.parseLong(codes.group(3)) + Long.parseLong(codes.group(4));
        }
        long errors = Long.parseLong(req.group(5)) + Long.parseLong(req.group(6)) + Long.parseLong(req.group(7)) + non2xx;
        String protocol = first(out, "Application protocol: (\\S+)");
        String tls = first(out, "TLS Protocol: (\\S+)");
        String cipher = first(out, "Cipher: (\\S+)");
        List<String> problems = new ArrayList<>();
        if (protocol.isEmpty()) problems.add("h2load negotiated no application protocol: " + lastLines(out, 3));
        return new Load(twoXx, seconds, errors, protocol, tls.isEmpty() ? "" : tls + " " + cipher, problems);
    }

    /**
     * Parses one {@code openssl s_time} run (OpenSSL 3): {@code N connections in Ts; ...} and
     * {@code N connections in T real seconds, B bytes read per connection}, after the progress stars.
     *
     * @param out what it printed
     * @param exit its exit status
     * @return the connections and bytes per connection; the window is the caller's wall clock
     */
    static Load parseSTime(String out, int exit) {
        Matcher m = Pattern.compile("(\\d+) connections in [\\d.]+s;").matcher(out);
        Matcher bytes = Pattern.compile("(\\d+) bytes read per connection").matcher(out);
        List<String> problems = new ArrayList<>();
        if (!m.find()) return new Load(0, 0, 1, "", "", List.of("no s_time summary (exit " + exit + "): " + lastLines(out, 3)));
        long connections = Long.parseLong(m.group(1));
        long perConnection = bytes.find() ? Long.parseLong(bytes.group(1)) : -1;
        long errors = exit == 0 ? 0 : 1;
        if (exit != 0) problems.add("s_time exited " + exit + ": " + lastLines(out, 2));
        return new Load(connections, 0, errors, "http/1.1", perConnection < 0 ? "" : perConnection + " bytes per connection", problems);
    }

    /**
     * Full handshakes: parallel {@code s_time -new} processes started together, their connections summed.
     *
     * @param clients how many
     * @param cpus the generator CPUs
     * @param port the TLS port
     * @param seconds each one's time
     * @return the connections (one request each), errors and problems of all of them
     */
    static Load handshakes(int clients, String cpus, int port, int seconds) {
        List<Process> ps = new ArrayList<>();
        List<String> cmd = sTime(cpus, port, seconds);
        try {
            for (int i = 0; i < clients; i++) {
                ps.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start());
            }
        } catch (IOException e) {
            ps.forEach(Process::destroyForcibly);
            throw new UncheckedIOException(e);
        }
        long connections = 0, errors = 0;
        List<String> problems = new ArrayList<>();
        String details = "";
        for (Process p : ps) {
            Output o = await(p, cmd, seconds);
            Load l = parseSTime(o.text(), o.exit());
            connections += l.requests();
            errors += l.errors();
            problems.addAll(l.problems());
            if (details.isEmpty()) details = l.details();
        }
        return new Load(connections, 0, errors, "http/1.1", details, problems);
    }

    /**
     * Runs a command, waiting at most {@code seconds + 30} s.
     *
     * @param cmd the command line
     * @param seconds its expected duration
     * @return exit status and everything it printed (stdout and stderr)
     */
    static Output run(List<String> cmd, int seconds) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return await(p, cmd, seconds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A finished command. @param exit its status @param text what it printed */
    record Output(int exit, String text) {}

    /** @return the process's output, once it exits; killed past {@code seconds + 30} s */
    static Output await(Process p, List<String> cmd, int seconds) {
        try {
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("did not finish: " + String.join(" ", cmd));
            }
            return new Output(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String first(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        return m.find() ? m.group(1) : "";
    }

    /** @return the last non-empty lines, joined, without s_time's progress stars */
    static String lastLines(String out, int n) {
        List<String> lines = out.replace("*", "").lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
