package dev.tidemill.internal.assets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ByteRange} against a 100-byte representation (and an empty one): RFC 9110 14.1.1 and 14.1.2. */
class ByteRangeTest {

    @ParameterizedTest(name = "[{0}] -> {1} {2}-{3}")
    @CsvSource(delimiter = '|', value = {
        "bytes=0-9        | SINGLE        | 0  | 9",
        "bytes=10-        | SINGLE        | 10 | 99",
        "bytes=-5         | SINGLE        | 95 | 99",
        "bytes=-500       | SINGLE        | 0  | 99",
        "bytes=90-500     | SINGLE        | 90 | 99",
        "bytes=99-99      | SINGLE        | 99 | 99",
        "Bytes = 1-2      | SINGLE        | 1  | 2",
        "bytes=1-2,       | SINGLE        | 1  | 2",
        "bytes=100-       | UNSATISFIABLE | 0  | -1",
        "bytes=100-200    | UNSATISFIABLE | 0  | -1",
        "bytes=99999999999999999999999- | UNSATISFIABLE | 0 | -1",
        "bytes=-0         | UNSATISFIABLE | 0  | -1",
        "bytes=0-1,3-4    | MULTIPLE      | 0  | -1",
        "bytes=0-,0-,0-   | MULTIPLE      | 0  | -1",
        "bytes=5-1        | NONE          | 0  | -1",
        "bytes=a-b        | NONE          | 0  | -1",
        "bytes=1          | NONE          | 0  | -1",
        "bytes=-          | NONE          | 0  | -1",
        "bytes=+1-2       | NONE          | 0  | -1",
        "items=0-1        | NONE          | 0  | -1",
        "0-1              | NONE          | 0  | -1",
    })
    void parses(String header, ByteRange.Kind kind, long first, long last) {
        ByteRange r = ByteRange.parse(header, 100);
        assertThat(r.kind()).isEqualTo(kind);
        if (kind == ByteRange.Kind.SINGLE) {
            assertThat(r.first()).isEqualTo(first);
            assertThat(r.last()).isEqualTo(last);
        }
    }

    @ParameterizedTest
    @CsvSource({"bytes=0-", "bytes=-1", "bytes=0-0"})
    void nothingOfAnEmptyRepresentationIsSatisfiable(String header) {
        assertThat(ByteRange.parse(header, 0).kind()).isEqualTo(ByteRange.Kind.UNSATISFIABLE);
    }
}
