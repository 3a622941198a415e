package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The TLS suite's numbers and goals from its rows, and its Markdown (the page next to the JSON,
 * which {@code bench report} puts into docs/performance.md). Medians are over rounds of clean
 * windows (requests, no error, no problem); a case's cost is the median over rounds of its server
 * CPU per request divided by the same target's plaintext HTTP/1.1 in the same round. The goals
 * compare server CPU per request: Tidemill's lower target against the lowest JVM peer (nginx is a
 * reference, not a peer), and Tidemill's OpenSSL provider against its JDK provider.
 */
public final class TlsReport {
    private TlsReport() {}

    /** The Tidemill target with the OpenSSL provider. */
    static final String OPENSSL = "tidemill-openssl";
    /** The Tidemill target with the JDK provider. */
    static final String JDK = "tidemill-jdk";

    /**
     * One target and case over the rounds.
     *
     * @param target the target
     * @param kind {@code tidemill}, {@code peer} or {@code native}
     * @param caseId the case
     * @param key the certificate's key
     * @param load the client's settings
     * @param rounds clean windows
     * @param medianRps median requests per second
     * @param medianCpuUsPerRequest median server CPU per request, µs
     * @param costToH1 median of per-round ratios of server CPU per request to the target's {@code h1} (NaN without one)
     * @param errors errors over every window
     * @param clientBound whether any window was client-bound
     * @param protocol the protocol the client reported
     * @param details TLS version and cipher, or bytes per connection
     */
    public record Summary(String target, String kind, String caseId, String key, String load, int rounds, double medianRps,
                          double medianCpuUsPerRequest, double costToH1, long errors, boolean clientBound, String protocol,
                          String details) {}

    /**
     * Tidemill against the JVM peers on one case.
     *
     * @param caseId the case
     * @param goal whether the goal judges it (h2 over TLS, h2c, HTTP/1.1 over TLS); the rest is shown only
     * @param tidemill Tidemill's target with the lower server CPU per request
     * @param tidemillCpuUs its figure
     * @param peer the JVM peer with the lowest
     * @param peerCpuUs its figure
     * @param met whether Tidemill's is the lowest
     */
    public record PeerGoal(String caseId, boolean goal, String tidemill, double tidemillCpuUs, String peer, double peerCpuUs, boolean met) {}

    /**
     * Tidemill's OpenSSL provider against its JDK provider on one TLS case.
     *
     * @param caseId the case
     * @param opensslCpuUs server CPU per request with OpenSSL, µs
     * @param jdkCpuUs with the JDK
     * @param opensslRps requests per second with OpenSSL
     * @param jdkRps with the JDK
     * @param met whether OpenSSL costs less CPU per request
     * @param cpuSavedPercent how much less OpenSSL costs, in % of the JDK's (negative: more)
     */
    public record ProviderGoal(String caseId, double opensslCpuUs, double jdkCpuUs, double opensslRps, double jdkRps, boolean met,
                               double cpuSavedPercent) {}

    /** @param rows every window @return a summary per target and case, in case then first-seen target order */
    static List<Summary> summarise(List<TlsSuite.Row> rows) {
        List<String> targets = rows.stream().map(TlsSuite.Row::target).distinct().toList();
        List<Summary> out = new ArrayList<>();
        for (TlsCase c : TlsCase.values()) {
            for (String t : targets) {
                List<TlsSuite.Row> all = rows.stream().filter(r -> r.target().equals(t) && r.caseId().equals(c.id())).toList();
                if (all.isEmpty()) continue;
                List<TlsSuite.Row> clean = all.stream().filter(TlsSuite.Row::clean).toList();
                List<Double> ratios = new ArrayList<>();
                for (TlsSuite.Row r : clean) {
                    rows.stream().filter(h -> h.target().equals(t) && h.round() == r.round() && h.caseId().equals(TlsCase.H1.id())
                            && h.clean()).findFirst().ifPresent(h -> ratios.add(r.serverCpuUsPerRequest() / h.serverCpuUsPerRequest()));
                }
                TlsSuite.Row first = all.getFirst();
                out.add(new Summary(t, first.kind(), c.id(), first.key(), first.load(), clean.size(),
                        median(clean.stream().map(TlsSuite.Row::requestsPerSec).toList()),
                        median(clean.stream().map(TlsSuite.Row::serverCpuUsPerRequest).toList()), median(ratios),
                        all.stream().mapToLong(TlsSuite.Row::errors).sum(), all.stream().anyMatch(TlsSuite.Row::clientBound),
                        first.protocol(), first.details()));
            }
        }
        return out;
    }

    /** @param summary the summaries @return per case with a Tidemill and a JVM peer figure, Tidemill against the lowest peer */
    static List<PeerGoal> peerGoals(List<Summary> summary) {
        List<PeerGoal> out = new ArrayList<>();
        for (TlsCase c : TlsCase.values()) {
            if (c == TlsCase.H1) continue;
            Optional<Summary> ours = lowest(summary, c, "tidemill"), peer = lowest(summary, c, "peer");
            if (ours.isEmpty() || peer.isEmpty()) continue;
            out.add(new PeerGoal(c.id(), c.peerGoal(), ours.get().target(), ours.get().medianCpuUsPerRequest(), peer.get().target(),
                    peer.get().medianCpuUsPerRequest(), ours.get().medianCpuUsPerRequest() < peer.get().medianCpuUsPerRequest()));
        }
        return out;
    }

    /** @param summary the summaries @return per TLS case measured with both providers, OpenSSL against the JDK */
    static List<ProviderGoal> providerGoals(List<Summary> summary) {
        List<ProviderGoal> out = new ArrayList<>();
        for (TlsCase c : TlsCase.values()) {
            if (!c.tls()) continue;
            Optional<Summary> o = find(summary, OPENSSL, c), j = find(summary, JDK, c);
            if (o.isEmpty() || j.isEmpty()) continue;
            double oc = o.get().medianCpuUsPerRequest(), jc = j.get().medianCpuUsPerRequest();
            out.add(new ProviderGoal(c.id(), oc, jc, o.get().medianRps(), j.get().medianRps(), oc < jc, (jc - oc) / jc * 100));
        }
        return out;
    }

    private static Optional<Summary> lowest(List<Summary> summary, TlsCase c, String kind) {
        return summary.stream().filter(s -> s.caseId().equals(c.id()) && s.kind().equals(kind) && s.rounds() > 0
                && !Double.isNaN(s.medianCpuUsPerRequest())).min(Comparator.comparingDouble(Summary::medianCpuUsPerRequest));
    }

    private static Optional<Summary> find(List<Summary> summary, String target, TlsCase c) {
        return summary.stream().filter(s -> s.target().equals(target) && s.caseId().equals(c.id()) && s.rounds() > 0).findFirst();
    }

    /** @return the median, NaN for none */
    static double median(List<Double> values) {
        List<Double> v = values.stream().filter(d -> !Double.isNaN(d)).sorted().toList();
        if (v.isEmpty()) return Double.NaN;
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /** @param summary the summaries @return the results table */
    static String markdown(List<Summary> summary) {
        StringBuilder b = new StringBuilder("| case | target | certificate | client | req/s | server CPU us/req | cost vs plaintext "
                + "HTTP/1.1 | errors | protocol | notes |\n|---|---|---|---|---:|---:|---:|---:|---|---|\n");
        for (Summary s : summary) {
            List<String> notes = new ArrayList<>();
            if (s.clientBound()) notes.add("client-bound (generator CPUs >= " + (int) HeavyLoadSuite.CLIENT_BOUND_PERCENT + " % busy)");
            if (s.rounds() == 0) notes.add("no clean window: no figures");
            if (!s.details().isEmpty()) notes.add(s.details());
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %,d | %s | %s |%n", s.caseId(), s.target(), s.key(),
                    s.load(), number(s.medianRps(), "%,.0f"), number(s.medianCpuUsPerRequest(), "%.1f"),
                    s.caseId().equals(TlsCase.H1.id()) ? "1.00x (baseline)" : number(s.costToH1(), "%.2fx"), s.errors(), s.protocol(),
                    String.join("; ", notes)));
        }
        return b.toString();
    }

    /** @return the verdict on both goals, with the per-case tables */
    static String verdict(List<PeerGoal> peers, List<ProviderGoal> providers) {
        StringBuilder b = new StringBuilder("Goals: Tidemill's server CPU per request the lowest of every JVM peer on h2 "
                + "(TLS and h2c) and on HTTP/1.1 over TLS (Tidemill's lower provider against the lowest peer; nginx is a reference, "
                + "not a peer); Tidemill with OpenSSL (BoringSSL) cheaper than with the JDK provider.\n\n");
        List<PeerGoal> judged = peers.stream().filter(PeerGoal::goal).toList();
        if (judged.isEmpty()) {
            b.append("- Lowest CPU of the JVM peers: not judged (no case had a clean Tidemill and a clean peer figure).\n");
        } else {
            long met = judged.stream().filter(PeerGoal::met).count();
            b.append(String.format(Locale.ROOT, "- Lowest server CPU per request of the JVM peers: met in %d of %d cases (goal %s).%n", met,
                    judged.size(), met == judged.size() ? "met" : "not met"));
        }
        if (providers.isEmpty()) {
            b.append("- OpenSSL against the JDK provider: not judged (both Tidemill targets are needed).\n");
        } else {
            long met = providers.stream().filter(ProviderGoal::met).count();
            b.append(String.format(Locale.ROOT, "- OpenSSL cheaper than the JDK provider: in %d of %d TLS cases (goal %s).%n", met,
                    providers.size(), met == providers.size() ? "met" : "not met"));
        }
        if (!peers.isEmpty()) {
            b.append("\n| case | judged | Tidemill (CPU us/req) | lowest JVM peer (CPU us/req) | Tidemill lowest |\n|---|---|---|---|---|\n");
            for (PeerGoal g : peers) {
                b.append(String.format(Locale.ROOT, "| %s | %s | %s %.1f | %s %.1f | %s |%n", g.caseId(), g.goal() ? "yes" : "no (shown only)",
                        g.tidemill(), g.tidemillCpuUs(), g.peer(), g.peerCpuUs(), g.met() ? "yes" : "no"));
            }
        }
        if (!providers.isEmpty()) {
            b.append("\n| case | OpenSSL CPU us/req | JDK CPU us/req | OpenSSL saves | OpenSSL req/s | JDK req/s | met |\n"
                    + "|---|---:|---:|---:|---:|---:|---|\n");
            for (ProviderGoal g : providers) {
                b.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %+.1f %% | %,.0f | %,.0f | %s |%n", g.caseId(), g.opensslCpuUs(),
                        g.jdkCpuUs(), g.cpuSavedPercent(), g.opensslRps(), g.jdkRps(), g.met() ? "yes" : "no"));
            }
        }
        return b.toString();
    }

    /** @param r the result @return the page written next to the JSON */
    static String page(TlsSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Tidemill bench, TLS and HTTP/2 suite" + (r.quick() ? " (quick)" : "") + ", " + r.startedUtc()
                + "\n\n");
        b.append(String.format(Locale.ROOT, "Every target answers GET %s on a plain port (HTTP/1.1, and h2c by prior knowledge; nginx takes "
                        + "h2c on a port of its own) and a TLS port (TLS 1.2 and 1.3, ALPN h2 and http/1.1). Before a start is timed, curl checks each protocol's answer (200, "
                        + "text/plain, the exact body, the HTTP version asked for) and `openssl s_client` one handshake (TLS version, "
                        + "cipher, ALPN h2, the certificate's key); a wrong answer fails the run. %s round(s), targets in a rotated order; "
                        + "each case gets %s s of warm-up, then %s s measured. Cases: `h1` and `h1-tls` with %s; `h2-tls` and `h2c` "
                        + "with %s; `handshake-p256` and `handshake-rsa` with %s. %s. Certificates: %s. Server CPU per request = utime "
                        + "+ stime of the server process (and its children) over the window / requests; the cost vs plaintext HTTP/1.1 "
                        + "is the median over rounds of that figure divided by the same target's `h1` in the same round. Server on CPUs "
                        + "%s, clients on CPUs %s (taskset); every JVM target with `%s`. TLS stacks: %s. Tools: %s. Command: `%s`.%n%n",
                c.get("body"), c.get("rounds"), c.get("warmupSeconds"), c.get("durationSeconds"), c.get("wrk"), c.get("h2load"),
                c.get("handshakes"), c.get("resumption"), c.get("certificates"), c.get("serverCpus"), c.get("loadGeneratorCpus"),
                c.get("jvmFlags"), joined(c.get("tlsStacks")), joined(c.get("tools")), r.command()));
        b.append("## Results\n\n").append(markdown(r.summary()));
        b.append("\n## Goals\n\n").append(verdict(r.peerGoals(), r.providerGoals()));
        List<String> handshakes = r.targets().stream().filter(t -> t.get("handshake") != null)
                .map(t -> t.get("target") + " (" + t.get("certificate") + "): " + t.get("handshake")).distinct().toList();
        if (!handshakes.isEmpty()) {
            b.append("\n## Negotiated (openssl s_client, offering h2,http/1.1)\n\n");
            handshakes.forEach(h -> b.append("- ").append(h).append('\n'));
        }
        if (r.resumption() != null && !r.resumption().isEmpty()) {
            b.append("\n## Session resumption (nginx's $ssl_session_reused, counted in this run)\n\n");
            r.resumption().forEach(w -> b.append("- ").append(w.describe()).append('\n'));
        }
        if (!r.notMeasured().isEmpty()) {
            b.append("\n## Not measured\n\n");
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
        }
        if (!r.failures().isEmpty()) {
            b.append("\n## Failures\n\n");
            r.failures().forEach(n -> b.append("- ").append(n.replace("|", "\\|").replace("\n", " ")).append('\n'));
        }
        return b.toString();
    }

    private static String joined(Object map) {
        if (!(map instanceof Map<?, ?> m) || m.isEmpty()) return "-";
        List<String> parts = new ArrayList<>();
        m.forEach((k, v) -> parts.add(k + ": " + v));
        return String.join("; ", parts);
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
