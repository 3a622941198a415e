package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Problem;
import dev.tidemill.internal.exchange.Verdict;
import dev.tidemill.internal.http1.Refusals.Next;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every branch of {@link Refusals#after}, on heads built as the decoder builds them: headers from
 * {@link RequestHeaders#FACTORY}, added one field line at a time, so the framing fields are
 * captured exactly as in production. Every row repeats with Netty's plain headers (validation off,
 * as the decoder runs it), the fallback path for a head not built with {@link RequestHeaders}.
 */
class RefusalsTest {
    private static final Verdict KEEPS = new Verdict(Problem.of(404, "Not Found", "no route"), false);
    private static final Verdict CLOSES = new Verdict(Problem.of(400, "Bad Request", "two Hosts"), true);

    static Stream<Arguments> cases() {
        return Stream.of(
                // the verdict says the framing is lost: close, body or not
                row("close verdict, no body", CLOSES, "1.1", 1024, Next.CLOSE),
                row("close verdict, small body", CLOSES, "1.1", 1024, Next.CLOSE, "Content-Length", "5"),
                row("close verdict, chunked", CLOSES, "1.1", 1024, Next.CLOSE, "Transfer-Encoding", "chunked"),
                // no body: the next request follows at once
                row("no framing headers", KEEPS, "1.1", 1024, Next.READ_NEXT),
                row("Content-Length: 0", KEEPS, "1.1", 1024, Next.READ_NEXT, "Content-Length", "0"),
                row("Content-Length: 0, drain limit 0", KEEPS, "1.1", 0, Next.READ_NEXT, "Content-Length", "0"),
                row("HTTP/1.0, no body", KEEPS, "1.0", 1024, Next.READ_NEXT),
                row("100-continue without a body", KEEPS, "1.1", 1024, Next.READ_NEXT, "Expect", "100-continue"),
                // the client waits for 100 Continue: it may never send the body
                row("100-continue with a small body", KEEPS, "1.1", 1024, Next.CLOSE,
                        "Expect", "100-continue", "Content-Length", "5"),
                row("100-continue, chunked", KEEPS, "1.1", 1024, Next.CLOSE,
                        "Expect", "100-CONTINUE", "Transfer-Encoding", "chunked"),
                row("100-continue in a second Expect field", KEEPS, "1.1", 1024, Next.CLOSE,
                        "Expect", "foo", "Expect", "100-continue", "Content-Length", "5"),
                row("HTTP/1.0 ignores Expect", KEEPS, "1.0", 1024, Next.DISCARD_BODY,
                        "Expect", "100-continue", "Content-Length", "5"),
                // chunked: the length is unknown, so any drain limit above 0 lets it try
                row("chunked, drain limit 0", KEEPS, "1.1", 0, Next.CLOSE, "Transfer-Encoding", "chunked"),
                row("chunked, drain limit 1", KEEPS, "1.1", 1, Next.DISCARD_BODY, "Transfer-Encoding", "chunked"),
                row("chunked, drain limit 64 KiB", KEEPS, "1.1", 65536, Next.DISCARD_BODY, "Transfer-Encoding", "Chunked"),
                // Content-Length against the drain limit
                row("length within the limit", KEEPS, "1.1", 1024, Next.DISCARD_BODY, "Content-Length", "1"),
                row("length at the limit", KEEPS, "1.1", 1024, Next.DISCARD_BODY, "Content-Length", "1024"),
                row("length one past the limit", KEEPS, "1.1", 1024, Next.CLOSE, "Content-Length", "1025"),
                row("length with whitespace", KEEPS, "1.1", 1024, Next.DISCARD_BODY, "Content-Length", " 10 "),
                row("length, drain limit 0", KEEPS, "1.1", 0, Next.CLOSE, "Content-Length", "1"),
                row("HTTP/1.0 length within the limit", KEEPS, "1.0", 1024, Next.DISCARD_BODY, "Content-Length", "100"),
                // a length that cannot be read: assume a body of unknown size
                row("length not a number", KEEPS, "1.1", 1024, Next.CLOSE, "Content-Length", "abc"),
                row("length negative", KEEPS, "1.1", 1024, Next.CLOSE, "Content-Length", "-1"),
                row("length past a long", KEEPS, "1.1", Long.MAX_VALUE, Next.CLOSE, "Content-Length", "99999999999999999999"),
                row("length empty", KEEPS, "1.1", 1024, Next.CLOSE, "Content-Length", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void afterARefusal(String name, Verdict verdict, String version, long maxDrainBytes, Next expected, String[] fields) {
        assertThat(Refusals.after(verdict, HeadFraming.of(request(version, RequestHeaders.FACTORY.newHeaders(), fields)), maxDrainBytes))
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSameWithNettysOwnHeaders(String name, Verdict verdict, String version, long maxDrainBytes, Next expected, String[] fields) {
        assertThat(Refusals.after(verdict, HeadFraming.of(request(version, DefaultHttpHeadersFactory.headersFactory().withValidation(false).newHeaders(), fields)), maxDrainBytes)).isEqualTo(expected);
    }

    private static Arguments row(String name, Verdict verdict, String version, long maxDrainBytes, Next expected, String... fields) {
        return Arguments.of(name, verdict, version, maxDrainBytes, expected, fields);
    }

    private static HttpRequest request(String version, HttpHeaders headers, String[] fields) {
        headers.add("Host", "example.com");
        for (int i = 0; i < fields.length; i += 2) headers.add(fields[i], fields[i + 1]); // one field line each, as the decoder adds them
        return new DefaultHttpRequest(version.equals("1.0") ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1, HttpMethod.POST, "/x", headers);
    }
}
