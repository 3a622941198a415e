package dev.tidemill.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one wrk run reported.
 *
 * @param requests completed requests
 * @param seconds the run's length as wrk measured it
 * @param requestsPerSec wrk's {@code Requests/sec}
 * @param p50Us median latency in microseconds (NaN without {@code --latency})
 * @param p99Us 99th percentile latency in microseconds (NaN without {@code --latency})
 * @param socketErrors connect + read + write + timeout errors
 * @param non2xx responses that were neither 2xx nor 3xx
 * @param bytesRead every byte wrk read from the sockets (heads and bodies, as on the wire), as the
 *     mix scripts print it from {@code done} ({@code wire bytes: N}); -1 when the script did not
 */
public record WrkResult(long requests, double seconds, double requestsPerSec, double p50Us, double p99Us,
                        long socketErrors, long non2xx, long bytesRead) {

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m|h)");
    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|99)(?:\\.0+)?%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$", Pattern.MULTILINE);
    private static final Pattern SOCKET = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern WIRE_BYTES = Pattern.compile("^wire bytes: (\\d+)$", Pattern.MULTILINE);

    /** @return bytes read per completed request (NaN when unknown) */
    public double bytesPerResponse() {
        return bytesRead < 0 || requests == 0 ? Double.NaN : (double) bytesRead / requests;
    }

    /** @return whether the run had any socket error or non-2xx answer (such a run gets no ratio) */
    public boolean hasErrors() {
        return socketErrors > 0 || non2xx > 0;
    }

    /**
     * Parses wrk 4's text output.
     *
     * @param out wrk's standard output
     * @return the numbers
     * @throws IllegalArgumentException if the output has no request count (wrk failed)
     */
    public static WrkResult parse(String out) {
        Matcher m = REQUESTS.matcher(out);
        if (!m.find()) throw new IllegalArgumentException("no 'N requests in T' line in wrk output:\n" + out);
        long requests = Long.parseLong(m.group(1));
        double seconds = micros(m.group(2), m.group(3)) / 1e6;
        Matcher r = RPS.matcher(out);
        double rps = r.find() ? Double.parseDouble(r.group(1)) : requests / seconds;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        int dist = out.indexOf("Latency Distribution");
        if (dist >= 0) {
            Matcher p = PERCENTILE.matcher(out.substring(dist));
            while (p.find()) {
                double us = micros(p.group(2), p.group(3));
                if (p.group(1).equals("50")) p50 = us; else p99 = us;
            }
        }
        long socket = 0;
        Matcher s = SOCKET.matcher(out);
        if (s.find()) {
            for (int i = 1; i <= 4; i++) socket += Long.parseLong(s.group(i));
        }
        Matcher n = NON2XX.matcher(out);
        long non2xx = n.find() ? Long.parseLong(n.group(1)) : 0;
        Matcher w = WIRE_BYTES.matcher(out);
        long bytes = w.find() ? Long.parseLong(w.group(1)) : -1;
        return new WrkResult(requests, seconds, rps, p50, p99, socket, non2xx, bytes);
    }

    /** wrk prints durations with the unit that keeps the number short: us, ms, s, m or h. */
    static double micros(String value, String unit) {
        double v = Double.parseDouble(value);
        return switch (unit) {
            case "us" -> v;
            case "ms" -> v * 1e3;
            case "s" -> v * 1e6;
            case "m" -> v * 60e6;
            case "h" -> v * 3600e6;
            default -> throw new IllegalArgumentException("unknown wrk time unit " + unit);
        };
    }
}
