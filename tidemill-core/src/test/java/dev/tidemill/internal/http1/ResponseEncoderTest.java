package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.exchange.DateHeader;
import dev.tidemill.internal.exchange.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exact bytes {@link ResponseEncoder} writes. The {@code Date} line is the one field that is
 * not fixed: it is checked to be an IMF-fixdate equal to {@link DateHeader#now()} at the time of
 * the call (either side of a second boundary), then compared like the rest. Every buffer the
 * encoder is given or returns is checked to be released once "written" (the test releases what
 * it got, as the channel would), except the shared unreleasable constants.
 */
class ResponseEncoderTest {
    private static final Pattern DATE = Pattern.compile("Date: ([A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT)\r\n");
    private static final String TEXT = "text/plain; charset=utf-8";

    private final ByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final ResponseEncoder encoder = new ResponseEncoder("Tidemill");
    private final List<ByteBuf> out = new ArrayList<>();
    private final List<ByteBuf> given = new ArrayList<>();
    private String dateBefore;

    @AfterEach
    void everyBufferReleased() {
        for (ByteBuf b : given) assertThat(b.refCnt()).as("a body buffer given to the encoder").isZero();
    }

    @Test
    void a200TextReply() {
        assertThat(full(reply(200, List.of(), TEXT, "hello"), false, false)).containsExactly(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n"
                        + "Server: Tidemill\r\nDATE\r\nhello");
    }

    @Test
    void noServerLineWhenTheServerHeaderIsEmpty() {
        ResponseEncoder bare = new ResponseEncoder("");
        dateBefore = DateHeader.now();
        Reply r = reply(200, List.of(), TEXT, "x");
        encode(bare, r, false, false);
        assertThat(written()).containsExactly("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 1\r\nDATE\r\nx");
    }

    @Test
    void aHeadReplyKeepsContentLengthAndSendsNoBody() {
        ByteBuf empty = given(Unpooled.buffer(0));
        Reply r = new Reply(null, 200, List.of(), TEXT, empty, 1234, null, false);
        assertThat(full(r, false, false)).containsExactly(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 1234\r\n"
                        + "Server: Tidemill\r\nDATE\r\n");
    }

    @Test
    void a204HasNoContentLength() {
        Reply r = new Reply(null, 204, List.of(), null, Unpooled.EMPTY_BUFFER, -1, null, false);
        assertThat(full(r, false, false)).containsExactly("HTTP/1.1 204 No Content\r\nServer: Tidemill\r\nDATE\r\n");
    }

    @Test
    void anEmptyBodyWithALengthSaysZero() {
        Reply r = new Reply(null, 200, List.of(), null, given(Unpooled.buffer(0)), 0, null, false);
        assertThat(full(r, false, false)).containsExactly("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nServer: Tidemill\r\nDATE\r\n");
    }

    @Test
    void contentLengthDigitsAreExact() {
        for (long length : new long[] {9, 10, 99, 100, 4096, 65536, 1_000_000_007L, 12_345_678_901_234L}) {
            Reply r = new Reply(null, 200, List.of(), null, Unpooled.EMPTY_BUFFER, length, null, false);
            assertThat(full(r, false, false)).as("%d", length).containsExactly(
                    "HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\nServer: Tidemill\r\nDATE\r\n");
        }
    }

    @Test
    void repliesAppendToTheBufferTheyAreGiven() {
        dateBefore = DateHeader.now();
        Reply first = reply(200, List.of(), null, "a");
        Reply second = reply(404, List.of("X-Id", "7"), null, "bc");
        ByteBuf both = alloc.buffer(encoder.bound(first) + encoder.bound(second));
        assertThat(encoder.full(both, first, false, false)).isNull();
        assertThat(encoder.full(both, second, false, false)).isNull();
        String text = DATE.matcher(both.toString(StandardCharsets.ISO_8859_1)).replaceAll("DATE");
        assertThat(both.release()).isTrue();
        assertThat(text).isEqualTo("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nServer: Tidemill\r\nDATE\r\na"
                + "HTTP/1.1 404 Not Found\r\nX-Id: 7\r\nContent-Length: 2\r\nServer: Tidemill\r\nDATE\r\nbc");
    }

    @Test
    void aHandlersContentTypeIsNotDuplicated() {
        Reply r = reply(201, List.of("X-Id", "7", "content-type", "application/x-thing"), TEXT, "{}");
        assertThat(full(r, false, false)).containsExactly(
                "HTTP/1.1 201 Created\r\nX-Id: 7\r\ncontent-type: application/x-thing\r\nContent-Length: 2\r\n"
                        + "Server: Tidemill\r\nDATE\r\n{}");
    }

    @Test
    void handlerHeadersKeepTheirOrderBeforeTheContentType() {
        Reply r = reply(200, List.of("X-B", "2", "X-A", "1", "X-B", "3"), "application/json", "[]");
        assertThat(full(r, false, false)).containsExactly(
                "HTTP/1.1 200 OK\r\nX-B: 2\r\nX-A: 1\r\nX-B: 3\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                        + "Server: Tidemill\r\nDATE\r\n[]");
    }

    @Test
    void connectionCloseAndHttp10KeepAlive() {
        assertThat(full(reply(200, List.of(), null, "a"), true, false)).containsExactly(
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\nServer: Tidemill\r\nDATE\r\na");
        assertThat(full(reply(200, List.of(), null, "b"), false, true)).containsExactly(
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive\r\nServer: Tidemill\r\nDATE\r\nb");
        assertThat(full(reply(200, List.of(), null, "c"), true, true)).as("HTTP/1.0 closing: close only").containsExactly(
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\nServer: Tidemill\r\nDATE\r\nc");
    }

    @Test
    void rfc9110ReasonPhrases() {
        assertThat(statusLine(404)).isEqualTo("HTTP/1.1 404 Not Found");
        assertThat(statusLine(413)).isEqualTo("HTTP/1.1 413 Content Too Large");
        assertThat(statusLine(422)).isEqualTo("HTTP/1.1 422 Unprocessable Content");
        assertThat(statusLine(504)).isEqualTo("HTTP/1.1 504 Gateway Timeout");
    }

    @Test
    void aBodyUpToInlineBodyGoesInTheHeadsBuffer() {
        String body = "x".repeat(ResponseEncoder.INLINE_BODY);
        assertThat(full(reply(200, List.of(), null, body), false, false)).containsExactly(
                "HTTP/1.1 200 OK\r\nContent-Length: 4096\r\nServer: Tidemill\r\nDATE\r\n" + body);
    }

    @Test
    void aLargerBodyIsASecondBuffer() {
        String body = "y".repeat(ResponseEncoder.INLINE_BODY + 1);
        Reply r = reply(200, List.of(), null, body);
        dateBefore = DateHeader.now();
        encode(encoder, r, false, false);
        assertThat(out).hasSize(2);
        assertThat(out.get(1)).as("the body itself, not a copy").isSameAs(r.body());
        assertThat(written()).containsExactly("HTTP/1.1 200 OK\r\nContent-Length: 4097\r\nServer: Tidemill\r\nDATE\r\n", body);
    }

    @Test
    void aStreamedHeadIsChunkedInHttp11() {
        Reply r = new Reply(null, 200, List.of(), TEXT, Unpooled.EMPTY_BUFFER, -1, null, false);
        dateBefore = DateHeader.now();
        out.add(encoder.streamHead(alloc, r, false, false));
        assertThat(written()).containsExactly("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Transfer-Encoding: chunked\r\nServer: Tidemill\r\nDATE\r\n");
    }

    @Test
    void aStreamedHeadInHttp10HasNoCoding() {
        Reply r = new Reply(null, 200, List.of(), null, Unpooled.EMPTY_BUFFER, -1, null, false);
        dateBefore = DateHeader.now();
        out.add(encoder.streamHead(alloc, r, true, true));
        assertThat(written()).containsExactly("HTTP/1.1 200 OK\r\nConnection: close\r\nServer: Tidemill\r\nDATE\r\n");
    }

    @Test
    void aStreamedHeadWithAKnownLengthKeepsIt() {
        Reply r = new Reply(null, 200, List.of(), null, Unpooled.EMPTY_BUFFER, 10, null, false);
        dateBefore = DateHeader.now();
        out.add(encoder.streamHead(alloc, r, false, false));
        assertThat(written()).containsExactly("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nServer: Tidemill\r\nDATE\r\n");
    }

    @Test
    void aChunkIsItsSizeInHexThenItsBytes() {
        assertThat(chunk("hello", false)).containsExactly("5\r\nhello\r\n");
        assertThat(chunk("abcdefghijklmnopqrstuvwxyz", false)).containsExactly("1a\r\nabcdefghijklmnopqrstuvwxyz\r\n");
        String inline = "z".repeat(ResponseEncoder.INLINE_BODY);
        assertThat(chunk(inline, false)).containsExactly("1000\r\n" + inline + "\r\n");
    }

    @Test
    void aLargeChunkIsSizeDataAndTheConstantCrlf() {
        String data = "q".repeat(ResponseEncoder.INLINE_BODY + 1);
        ByteBuf buf = given(buf(data));
        ResponseEncoder.chunk(alloc, buf, false, out);
        assertThat(out).hasSize(3);
        assertThat(out.get(1)).isSameAs(buf);
        assertThat(written()).containsExactly("1001\r\n", data, "\r\n");
    }

    @Test
    void anHttp10ChunkIsTheRawBytes() {
        ByteBuf buf = given(buf("raw"));
        ResponseEncoder.chunk(alloc, buf, true, out);
        assertThat(out).containsExactly(buf);
        assertThat(written()).containsExactly("raw");
    }

    @Test
    void theLastChunkAndOneHundredContinueAreSharedConstants() {
        for (int i = 0; i < 2; i++) { // reading a copy leaves the constant whole
            ByteBuf last = ResponseEncoder.lastChunk();
            ByteBuf cont = ResponseEncoder.continueResponse();
            assertThat(last.toString(StandardCharsets.US_ASCII)).isEqualTo("0\r\n\r\n");
            assertThat(cont.toString(StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
            last.skipBytes(last.readableBytes());
            cont.skipBytes(cont.readableBytes());
            assertThat(last.release()).as("unreleasable").isFalse();
            assertThat(cont.release()).isFalse();
            assertThat(last.refCnt()).isEqualTo(1);
        }
    }

    /** @return the buffers written, as text, the date line replaced by {@code DATE}; each released after */
    private List<String> written() {
        String dateAfter = DateHeader.now();
        List<String> texts = new ArrayList<>();
        for (ByteBuf b : out) {
            String s = b.toString(StandardCharsets.ISO_8859_1);
            Matcher m = DATE.matcher(s);
            if (m.find()) {
                assertThat(m.group(1)).isIn(dateBefore, dateAfter);
                s = s.substring(0, m.start()) + "DATE" + s.substring(m.end()); // "DATE" then the blank line
            }
            texts.add(s);
            boolean released = b.release();
            if (s.equals("\r\n")) assertThat(released).as("the chunk end is a shared, unreleasable constant").isFalse();
            else assertThat(b.refCnt()).as("released once written: '%s'", s).isZero();
        }
        out.clear();
        return texts;
    }

    private List<String> full(Reply r, boolean close, boolean http10) {
        dateBefore = DateHeader.now();
        encode(encoder, r, close, http10);
        return written();
    }

    /** Encodes into a buffer of {@link ResponseEncoder#bound} bytes, which must not have to grow. */
    private void encode(ResponseEncoder e, Reply r, boolean close, boolean http10) {
        int bound = e.bound(r);
        ByteBuf head = alloc.buffer(bound, bound); // a head past its bound fails here
        ByteBuf large = e.full(head, r, close, http10);
        out.add(head);
        if (large != null) out.add(large);
    }

    private List<String> chunk(String data, boolean http10) {
        ResponseEncoder.chunk(alloc, given(buf(data)), http10, out);
        return written();
    }

    private String statusLine(int status) {
        String head = full(new Reply(null, status, List.of(), null, Unpooled.EMPTY_BUFFER, -1, null, false), false, false).get(0);
        return head.substring(0, head.indexOf("\r\n"));
    }

    private Reply reply(int status, List<String> headers, String contentType, String body) {
        ByteBuf b = given(buf(body));
        return new Reply(null, status, headers, contentType, b, b.readableBytes(), null, false);
    }

    private ByteBuf buf(String s) {
        return alloc.buffer(s.length()).writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private ByteBuf given(ByteBuf b) {
        given.add(b);
        return b;
    }
}
