package dev.tidemill.internal.assets;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Preconditions}: RFC 9110 13.1.1-13.1.5 comparisons. */
class PreconditionsTest {
    private static final String TAG = "\"abc\"";
    private static final Instant T = Instant.parse("2026-01-02T03:04:05Z");
    private static final String DATE = "Fri, 02 Jan 2026 03:04:05 GMT";

    @Test
    void weakComparisonForIfNoneMatch() {
        assertThat(Preconditions.matches("\"abc\"", TAG, false)).isTrue();
        assertThat(Preconditions.matches("W/\"abc\"", TAG, false)).isTrue();
        assertThat(Preconditions.matches("\"x\", W/\"abc\"", TAG, false)).isTrue();
        assertThat(Preconditions.matches("\"x\",\"abc\"", TAG, false)).isTrue();
        assertThat(Preconditions.matches("*", TAG, false)).isTrue();
        assertThat(Preconditions.matches("\"abcd\"", TAG, false)).isFalse();
        assertThat(Preconditions.matches("\"ab\"", TAG, false)).isFalse();
        assertThat(Preconditions.matches("abc", TAG, false)).as("unquoted: malformed").isFalse();
        assertThat(Preconditions.matches("\"abc", TAG, false)).isFalse();
        assertThat(Preconditions.matches("", TAG, false)).isFalse();
    }

    @Test
    void strongComparisonForIfRange() {
        assertThat(Preconditions.rangeStillValid(TAG, TAG, T)).isTrue();
        assertThat(Preconditions.rangeStillValid("W/" + TAG, TAG, T)).isFalse();
        assertThat(Preconditions.rangeStillValid("*", TAG, T)).isFalse();
        assertThat(Preconditions.rangeStillValid(DATE, TAG, T)).isTrue();
        assertThat(Preconditions.rangeStillValid("Fri, 02 Jan 2026 03:04:06 GMT", TAG, T)).as("only the exact date").isFalse();
        assertThat(Preconditions.rangeStillValid("soon", TAG, T)).isFalse();
    }

    @Test
    void ifModifiedSinceOnlyWithoutIfNoneMatch() {
        assertThat(Preconditions.notModified(List.of(), List.of(DATE), TAG, T)).isTrue();
        assertThat(Preconditions.notModified(List.of(), List.of("Sat, 03 Jan 2026 00:00:00 GMT"), TAG, T)).isTrue();
        assertThat(Preconditions.notModified(List.of(), List.of("Thu, 01 Jan 2026 00:00:00 GMT"), TAG, T)).isFalse();
        assertThat(Preconditions.notModified(List.of(), List.of("garbage"), TAG, T)).isFalse();
        assertThat(Preconditions.notModified(List.of("\"x\""), List.of(DATE), TAG, T)).isFalse();
        assertThat(Preconditions.notModified(List.of("\"x\"", TAG), List.of(), TAG, T)).as("two fields are one list").isTrue();
    }
}
