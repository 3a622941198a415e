package dev.tidemill.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import dev.tidemill.internal.routing.RouteMatch;
import dev.tidemill.internal.routing.Router;

/**
 * The router: arbitrary patterns are either added or refused with the documented exceptions,
 * and matching an arbitrary path against them never throws; a match returns a value that was
 * registered, with one raw value per parameter name.
 */
class RouterFuzzTest {

    @FuzzTest(maxDuration = "5s")
    void matchingNeverThrows(FuzzedDataProvider data) {
        Router<String> router = new Router<>();
        int routes = data.consumeInt(0, 8);
        for (int i = 0; i < routes; i++) {
            String method = data.pickValue(new String[] {"GET", "POST", "PUT"});
            String pattern = data.consumeString(40);
            try {
                router.add(method, pattern, "route-" + i);
            } catch (IllegalArgumentException | IllegalStateException refused) {
                // an invalid pattern or a conflicting route: documented
            }
        }
        String method = data.pickValue(new String[] {"GET", "HEAD", "POST", "DELETE"});
        String path = data.consumeRemainingAsString();
        RouteMatch<String> m = router.match(method, path);
        if (m instanceof RouteMatch.Found<String> f) {
            assertThat(f.value()).startsWith("route-");
            assertThat(f.rawValues()).hasSameSizeAs(f.names());
        }
        router.allowedMethods(path);
    }
}
