package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link HeaderFields} against Netty's {@link DefaultHttpHeaders}: the same operations on both
 * must read back the same (values, order, case-insensitive names), since the request path and
 * Netty's own codecs read request headers through {@link HttpHeaders} alone.
 */
class HeaderFieldsTest {

    /** Runs {@code ops} on ours and on Netty's and compares every read. */
    private static void same(Consumer<HttpHeaders> ops) {
        HttpHeaders ours = new RequestHeaders();
        // as the decoder's were before ours: no validation (HeadValidator checks every byte of a head first)
        HttpHeaders netty = DefaultHttpHeadersFactory.headersFactory().withValidation(false).newHeaders();
        ops.accept(ours);
        ops.accept(netty);
        assertThat(ours.size()).isEqualTo(netty.size());
        assertThat(ours.isEmpty()).isEqualTo(netty.isEmpty());
        assertThat(pairs(ours)).isEqualTo(pairs(netty));
        assertThat(ours.entries().toString()).isEqualTo(netty.entries().toString());
        for (String name : List.of("host", "HOST", "Accept", "x-a", "X-A", "content-length", "missing", "Date")) {
            assertThat(ours.get(name)).as(name).isEqualTo(netty.get(name));
            assertThat(ours.getAll(name)).as(name).isEqualTo(netty.getAll(name));
            assertThat(ours.contains(name)).as(name).isEqualTo(netty.contains(name));
            assertThat(ours.getInt(name)).as(name).isEqualTo(netty.getInt(name));
            Long nettyTime;
            try {
                nettyTime = netty.getTimeMillis(name);
            } catch (Exception e) { // Netty 4.2 throws ParseException (unchecked) for a value that is not a date; ours answers none
                nettyTime = null;
            }
            assertThat(ours.getTimeMillis(name)).as(name).isEqualTo(nettyTime);
        }
        assertThat(ours.get(HttpHeaderNames.HOST)).isEqualTo(netty.get(HttpHeaderNames.HOST));
        assertThat(ours.contains(HttpHeaderNames.CONTENT_LENGTH, "5", true)).isEqualTo(netty.contains(HttpHeaderNames.CONTENT_LENGTH, "5", true));
        assertThat(ours.containsValue(HttpHeaderNames.ACCEPT, "b", true)).isEqualTo(netty.containsValue(HttpHeaderNames.ACCEPT, "b", true));
        assertThat(pairs(ours.copy())).isEqualTo(pairs(netty));
        // Netty lists a name once per spelling ("X-A" and "x-a"); ours once, so each getAll(name) of names() is distinct
        assertThat(folded(ours.names())).isEqualTo(folded(netty.names())).hasSameSizeAs(ours.names());
    }

    private static java.util.Set<String> folded(java.util.Set<String> names) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (String n : names) out.add(n.toLowerCase(java.util.Locale.ROOT));
        return out;
    }

    private static List<String> pairs(HttpHeaders h) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : h) out.add(e.getKey() + "=" + e.getValue());
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = h.iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> e = it.next();
            out.add("cs:" + e.getKey() + "=" + e.getValue());
        }
        return out;
    }

    @Test
    void readsBackWhatNettysHeadersDo() {
        same(h -> { });
        same(h -> h.add("Host", "a").add("Accept", "a, b").add("X-A", "1").add("x-a", "2").add("Content-Length", "5"));
        same(h -> h.add("X-A", "1").add("Host", "a").add("x-A", "2").set("x-a", "3"));
        same(h -> h.add("X-A", "1").add("Host", "a").add("x-a", "2").remove("X-A").add("X-A", "4"));
        same(h -> h.add("Accept", List.of("a", "b")).set("Host", List.of("h1", "h2")).addInt("Content-Length", 7));
        same(h -> h.add("Content-Length", " 12 ").add("Date", new Date(1_700_000_000_000L)));
        same(h -> h.add("Content-Length", "x").add("Date", "not a date"));
        same(h -> h.add("Host", "a").add("Accept", "b").clear().add("Accept", "c"));
        same(h -> {
            for (int i = 0; i < 40; i++) h.add(i % 2 == 0 ? "X-A" : "Accept", Integer.toString(i));
        });
    }

    @Test
    void iteratorRemovesInPlace() { // Netty's iterator is read-only; ours lets a reader drop fields as it goes
        for (HttpHeaders h : List.of(new RequestHeaders())) {
            h.add("A", "1").add("B", "2").add("C", "3");
            Iterator<Map.Entry<String, String>> it = h.iterator();
            it.next();
            it.next();
            it.remove();
            assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
            assertThat(it.next().getKey()).isEqualTo("C");
            assertThat(it.hasNext()).isFalse();
            assertThat(pairs(h).subList(0, 2)).as(h.getClass().getSimpleName()).containsExactly("A=1", "C=3");
        }
    }

    @Test
    void anEntrySetsItsValueInPlace() {
        HttpHeaders h = new RequestHeaders().add("A", "1").add("B", "2");
        Iterator<Map.Entry<String, String>> it = h.iterator();
        it.next();
        assertThat(it.next().setValue("two")).isEqualTo("2");
        assertThat(h.get("b")).isEqualTo("two");
    }

    @Test
    void namesAreEachOnceInTheirFirstSpelling() {
        HttpHeaders h = new RequestHeaders().add("X-A", "1").add("Host", "h").add("x-a", "2");
        assertThat(h.names()).containsExactly("X-A", "Host");
    }

    @Test
    void nullNamesAndValuesAreRefused() {
        HttpHeaders h = new RequestHeaders();
        assertThatThrownBy(() -> h.add("A", (Object) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> h.set("A", (Object) null)).isInstanceOf(NullPointerException.class);
        assertThat(h.isEmpty()).isTrue();
    }

    @Test
    void capturesCountFieldsAsAddedAndSurviveACopy() {
        RequestHeaders h = new RequestHeaders();
        h.add("Content-Length", "5").add("content-length", "6").add("Host", "a").add("Connection", "keep-alive")
                .add("connection", "Upgrade").add("Expect", "100-continue").add("Transfer-Encoding", "chunked");
        h.set("Host", "b"); // a set is not a field that came: the counts stay the decoder's
        RequestHeaders copy = (RequestHeaders) h.copy();
        for (RequestHeaders r : List.of(h, copy)) {
            assertThat(r.contentLengthFields()).isEqualTo(2);
            assertThat(r.contentLength()).isEqualTo("5");
            assertThat(r.hostFields()).isEqualTo(1);
            assertThat(r.host()).isEqualTo("a");
            assertThat(r.connection()).isEqualTo("keep-alive, Upgrade");
            assertThat(r.expect()).isEqualTo("100-continue");
            assertThat(r.transferEncodingFields()).isEqualTo(1);
            assertThat(r.get("host")).isEqualTo("b");
        }
        copy.add("Host", "c");
        assertThat(h.getAll("Host")).containsExactly("b");
    }
}
