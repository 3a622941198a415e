package dev.tidemill.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.QueryString;
import dev.tidemill.internal.routing.TooManyParametersException;
import java.util.List;
import java.util.Map;

/**
 * Query strings: any input parses into at most {@code Limits.DEFAULTS.maxQueryPairs()} pairs or is refused
 * with one of the two documented exceptions.
 */
class QueryFuzzTest {

    @FuzzTest(maxDuration = "5s")
    void queryParsesOrRefuses(String raw) {
        try {
            check(QueryString.parse(raw));
        } catch (MalformedEncodingException | TooManyParametersException expected) {
            // documented refusals: 400 on the wire
        }
    }

    private static void check(Map<String, List<String>> parsed) {
        assertThat(parsed.values().stream().mapToInt(List::size).sum()).isLessThanOrEqualTo(dev.tidemill.Limits.DEFAULTS.maxQueryPairs());
    }
}
