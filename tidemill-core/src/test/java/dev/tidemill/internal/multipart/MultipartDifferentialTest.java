package dev.tidemill.internal.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Limits;
import dev.tidemill.ProblemException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our parser against Jetty 12's {@code MultiPart.Parser} (RFC 7578 compliance) on {@link
 * MultipartCorpus}: where both accept, the parts (names, file names, content types, headers,
 * content bytes) agree; where both refuse, fine; every other case is listed in {@link #DIVERGENCES}
 * with the reason, so a new divergence, or a listed one that went away, fails. Ours is also fed in
 * every chunk size from 1 to the body's length and must give the same result each time.
 */
class MultipartDifferentialTest {

    /** Cases where we and Jetty disagree on purpose: label to the reason. */
    static final Map<String, String> DIVERGENCES = Map.ofEntries(
            Map.entry("no Content-Disposition", "RFC 7578 4.2: every part MUST have Content-Disposition; Jetty yields a part named null"),
            Map.entry("no name", "RFC 7578 4.2: the name parameter is required; Jetty yields a part named null"),
            Map.entry("unterminated quoted name", "an unterminated quoted-string is malformed; Jetty yields a part named null"),
            Map.entry("attachment disposition", "RFC 7578 4.2: the disposition type MUST be form-data; Jetty takes any type"),
            Map.entry("LF line ends", "RFC 2046 lines end in CRLF; Jetty accepts bare LF (a compliance violation it reports)"
                    + " and a lenient line end is how two parsers come to see different parts"),
            Map.entry("CRLF in filename*", "a CR, LF or NUL decoded from filename* would reach logs, headers or paths;"
                    + " Jetty hands it to the application"),
            Map.entry("two Content-Disposition headers", "which one counts is ambiguous; Jetty takes the last"),
            Map.entry("two name parameters", "which one counts is ambiguous; Jetty takes the last"));

    static Stream<MultipartCorpus.Case> corpus() {
        return MultipartCorpus.cases().stream();
    }

    @Test
    void theCorpusIsLargeEnough() {
        assertThat(MultipartCorpus.cases()).hasSizeGreaterThanOrEqualTo(40);
        assertThat(MultipartCorpus.cases().stream().map(MultipartCorpus.Case::label).distinct()).hasSameSizeAs(MultipartCorpus.cases());
        assertThat(MultipartCorpus.cases().stream().map(MultipartCorpus.Case::label)).containsAll(DIVERGENCES.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void agreesWithJetty(MultipartCorpus.Case c) {
        Object ours = ours(c, 0);
        JettyParse.Outcome jetty = JettyParse.parse(c.boundary(), c.body(), 0);
        Object theirs = jetty.failure() != null ? "refused: " + jetty.failure() : jetty.parts();
        boolean weAccept = ours instanceof List;
        boolean jettyAccepts = jetty.failure() == null;
        boolean agree = weAccept == jettyAccepts && (!weAccept || ours.equals(jetty.parts()));
        String reason = DIVERGENCES.get(c.label());
        if (reason == null) {
            assertThat(agree).as("%s:%n ours  %s%n Jetty %s (violations %s)", c.label(), ours, theirs, jetty.violations()).isTrue();
        } else {
            assertThat(agree).as("%s is listed as a divergence (%s) but both now agree: %s", c.label(), reason, ours).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void everyChunkSizeGivesTheSameResult(MultipartCorpus.Case c) {
        Object whole = ours(c, 0);
        int max = Math.min(c.body().length, 300); // the 100 KiB case: sizes past 300 only move where it splits
        for (int chunk = 1; chunk <= max; chunk++) {
            assertThat(ours(c, chunk)).as("%s in chunks of %d", c.label(), chunk).isEqualTo(whole);
        }
    }

    /** @return our parts, or "refused: status detail" */
    static Object ours(MultipartCorpus.Case c, int chunk) {
        try {
            return Parsed.parse(c.boundary(), c.body(), Limits.DEFAULTS, chunk);
        } catch (ProblemException e) {
            return "refused: " + e.problem().status() + " " + e.problem().detail().orElse("");
        }
    }
}
