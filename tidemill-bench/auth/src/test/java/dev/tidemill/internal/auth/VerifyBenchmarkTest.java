package dev.tidemill.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The benchmark measures admitted tokens: its setup admits them, and an uncached call really verifies. */
class VerifyBenchmarkTest {

    @Test
    void everyCaseAdmitsItsTokens() {
        for (String alg : new String[] {"ES256", "RS256"}) {
            VerifyBenchmark b = new VerifyBenchmark();
            b.alg = alg;
            b.cache = "cached";
            b.setUp();
            try {
                assertThat(b.verify()).isInstanceOf(Outcome.Admitted.class);
                assertThat(b.verify()).isInstanceOf(Outcome.Admitted.class);
            } finally {
                b.tearDown();
            }
        }
    }

    @Test
    void theUncachedPoolOutgrowsTheCacheSoEachTokenIsVerifiedAgain() {
        assertThat(VerifyBenchmark.UNCACHED_TOKENS).isGreaterThan(JwtVerifier.MAX_REMEMBERED);
        var key = VerifyBenchmark.key("ES256");
        String[] tokens = VerifyBenchmark.tokens(key, "ES256", 3);
        JwtVerifier v = VerifyBenchmark.verifier(key);
        try {
            for (String t : tokens) assertThat(v.verify(t)).isInstanceOf(Outcome.Admitted.class);
            // a token signed by another key of the same kid is refused: the cache never admits what was not verified
            String forged = VerifyBenchmark.tokens(VerifyBenchmark.key("ES256"), "ES256", 1)[0];
            assertThat(v.verify(forged)).isInstanceOf(Outcome.Refused.class);
        } finally {
            v.close();
        }
    }
}
