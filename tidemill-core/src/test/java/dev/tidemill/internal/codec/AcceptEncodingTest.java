package dev.tidemill.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The negotiation table of RFC 9110 12.5.3 as {@link AcceptEncoding} reads it; the wire is covered by ResponseCompressionTest. */
class AcceptEncodingTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
            NONE                                 | IDENTITY        | true
            ''                                   | IDENTITY        | true
            gzip                                 | GZIP            | true
            GZIP                                 | GZIP            | true
            x-gzip                               | GZIP            | true
            'gzip, deflate, br, zstd'            | BR              | true
            'gzip, zstd'                         | ZSTD            | true
            'zstd, br'                           | BR              | true
            'br;q=0.5, gzip'                     | GZIP            | true
            'br;q=0.5, zstd;q=0.5, gzip;q=0.4'   | BR              | true
            'gzip;q=0.8, zstd;q=0.9'             | ZSTD            | true
            '*'                                  | BR              | true
            '*;q=0.1, gzip'                      | GZIP            | true
            'br;q=0, *'                          | ZSTD            | true
            'gzip;q=0.5, identity'               | IDENTITY        | true
            'gzip, identity'                     | GZIP            | true
            'identity;q=0'                       | NONE_ACCEPTABLE | false
            'identity;q=0, gzip'                 | GZIP            | false
            '*;q=0'                              | NONE_ACCEPTABLE | false
            '*;q=0, identity'                    | IDENTITY        | true
            '*;q=0, gzip;q=0.001'                | GZIP            | false
            'gzip;q=0'                           | IDENTITY        | true
            'deflate, compress'                  | IDENTITY        | true
            'gzip ; q=0.5 , br;Q=1.000'          | BR              | true
            ' , gzip,,'                          | GZIP            | true
            'gzip;q=2'                           | IDENTITY        | true
            'gzip;q=1.001'                       | IDENTITY        | true
            'gzip;q=0.0001'                      | IDENTITY        | true
            'gzip;q='                            | IDENTITY        | true
            'gzip;level=5'                       | IDENTITY        | true
            'gzip br'                            | IDENTITY        | true
            'identity;q=0, gzip;q=x'             | IDENTITY        | true
            '"gzip"'                             | IDENTITY        | true
            """)
    void negotiates(String header, Choice expected, boolean identityAcceptable) {
        AcceptEncoding.Result r = AcceptEncoding.negotiate(header == null ? List.of() : List.of(header), true);
        assertThat(r.choice()).isEqualTo(expected);
        assertThat(r.identityAcceptable()).isEqualTo(identityAcceptable);
    }

    @ParameterizedTest(name = "without br: [{0}] -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            'br, gzip'      | GZIP
            'br'            | IDENTITY
            '*'             | ZSTD
            """)
    void brotliMissingFallsBackToTheNextPreference(String header, Choice expected) {
        assertThat(AcceptEncoding.negotiate(List.of(header), false).choice()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "several fields: {0} + {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            'gzip'          | 'br'          | BR
            'identity;q=0'  | 'gzip'        | GZIP
            'br;q=0.1'      | 'zstd;q=0.2'  | ZSTD
            """)
    void severalFieldsAreOneList(String first, String second, Choice expected) {
        assertThat(AcceptEncoding.negotiate(List.of(first, second), true).choice()).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void onlyTheCodingsARepresentationHasCanBeChosen() {
        // a static asset whose br form came out larger than the file: br, zstd gone, gzip kept
        assertThat(AcceptEncoding.negotiate(List.of("br, gzip;q=0.5"), false, false, true).choice()).isEqualTo(Choice.GZIP);
        assertThat(AcceptEncoding.negotiate(List.of("br, zstd"), false, false, true).choice()).isEqualTo(Choice.IDENTITY);
        assertThat(AcceptEncoding.negotiate(List.of("*"), false, true, true).choice()).isEqualTo(Choice.ZSTD);
        assertThat(AcceptEncoding.negotiate(List.of("br, identity;q=0"), false, false, false).choice())
                .isEqualTo(Choice.NONE_ACCEPTABLE);
    }
}
