package dev.tidemill.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.QueryString;
import dev.tidemill.internal.routing.TooManyParametersException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * URL-encoded form bodies: any bytes parse into at most {@code Limits.DEFAULTS.maxQueryPairs()} pairs or are
 * refused with one of the two documented exceptions.
 */
class FormFuzzTest {

    @FuzzTest(maxDuration = "5s")
    void formParsesOrRefuses(byte[] body) {
        try {
            check(QueryString.parseForm(body, StandardCharsets.UTF_8));
        } catch (MalformedEncodingException | TooManyParametersException expected) {
            // documented refusals
        }
    }

    private static void check(Map<String, List<String>> parsed) {
        assertThat(parsed.values().stream().mapToInt(List::size).sum()).isLessThanOrEqualTo(dev.tidemill.Limits.DEFAULTS.maxQueryPairs());
    }
}
