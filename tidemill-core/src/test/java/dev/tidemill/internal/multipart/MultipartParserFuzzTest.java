package dev.tidemill.internal.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidemill.Limits;
import dev.tidemill.ProblemException;
import java.util.List;
import java.util.Random;

/**
 * The multipart parser on any bytes: it accepts them or refuses them with a {@link ProblemException}
 * (nothing else escapes), the parts' content together is never more than the input, and the same
 * input fed in random chunk sizes gives the same parts or the same refusal. Small limits, so that
 * the fuzzer reaches each of them.
 */
class MultipartParserFuzzTest {
    private static final String BOUNDARY = "b";
    private static final Limits LIMITS = Limits.builder().maxParts(8).maxPartHeaderBytes(128).maxFieldBytes(64)
            .maxFileBytes(256).build();

    @FuzzTest(maxDuration = "10s")
    void anyBodyParsesOrIsRefused(FuzzedDataProvider data) {
        long seed = data.consumeLong();
        byte[] body = data.consumeRemainingAsBytes();
        Object whole = outcome(body, 0, null);
        if (whole instanceof List<?> parts) {
            long content = parts.stream().mapToLong(p -> ((Parsed) p).content().length()).sum();
            assertThat(content).isLessThanOrEqualTo(body.length);
        }
        assertThat(outcome(body, -1, new Random(seed))).isEqualTo(whole);
    }

    /** @return the parts, or the refusal's status and detail */
    private static Object outcome(byte[] body, int chunk, Random random) {
        try {
            if (random == null) return Parsed.parse(BOUNDARY, body, LIMITS, chunk);
            return Parsed.parseRandomly(BOUNDARY, body, LIMITS, random);
        } catch (ProblemException e) {
            return e.problem().status() + " " + e.problem().detail().orElseThrow();
        }
    }
}
