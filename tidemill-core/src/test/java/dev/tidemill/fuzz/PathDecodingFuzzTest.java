package dev.tidemill.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.PathDecoder;

/**
 * Percent-decoding of paths: any input either decodes or is refused with {@link
 * MalformedEncodingException}; nothing else may escape, and a path without {@code %} is returned
 * unchanged. A finding becomes a regression test named after it in this class.
 */
class PathDecodingFuzzTest {

    @FuzzTest(maxDuration = "5s")
    void decodesOrRefuses(String raw) {
        if (raw == null) return; // Jazzer also tries null; the server never passes it
        try {
            String decoded = PathDecoder.decode(raw);
            if (raw.indexOf('%') < 0) assertThat(decoded).isSameAs(raw);
            assertThat(decoded.length()).isLessThanOrEqualTo(raw.length());
        } catch (MalformedEncodingException expected) {
            assertThat(raw).contains("%");
        }
    }
}
