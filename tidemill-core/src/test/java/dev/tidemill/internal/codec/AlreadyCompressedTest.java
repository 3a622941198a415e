package dev.tidemill.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ContentEncoding#alreadyCompressed}: the media type alone decides, in any case, with or without parameters and spaces. */
class AlreadyCompressedTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "image/png|true",
        "IMAGE/JPEG; q=1|true",
        "image/svg+xml|false",
        "Image/SVG+XML; charset=utf-8|false",
        "image/svg+xmlz|true",
        "'  video/mp4  '|true",
        "audio/ogg;codecs=opus|true",
        "font/woff2|true",
        "application/zip|true",
        "Application/GZIP ; x=y|true",
        "application/json|false",
        "application/zipper|false",
        "text/plain; charset=utf-8|false",
        "text/html|false",
        "'image'|false",
        "'; image/png'|false",
        "''|false",
    })
    void decidesOnTheMediaType(String contentType, boolean compressed) {
        assertThat(ContentEncoding.alreadyCompressed(contentType)).as(contentType).isEqualTo(compressed);
    }
}
