package dev.tidemill.internal.http1;

import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Date;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * Header fields of a request as one array of names and values in arrival order, looked up by a
 * linear scan with ASCII case folding; the limit on header fields (100 by default) bounds that scan.
 * Values are stored as Netty's headers would hold them (dates in the HTTP date format, anything
 * else as its text), and {@code names()} gives each name once in its first spelling.
 *
 * <p>Why our own container rather than Netty's {@code DefaultHttpHeaders}: a request carries a
 * handful of fields, read a few times each, and Netty's hashed, doubly linked entries (a 40-byte
 * entry per field, a bucket array and two wrapper objects per head) were the largest thing a
 * request head allocated, about 300 of a raw 1 KiB upload's 1,758 bytes (async-profiler alloc,
 * IO mode, {@code wrk -t1 -c4 -d10s}).
 */
class HeaderFields extends HttpHeaders {
    /** Names at even indexes, each followed by its value, in the order the fields came. */
    private String[] fields = new String[16];
    /** Used slots of {@link #fields}: twice the number of fields. */
    private int used;

    HeaderFields() {}

    @Override
    public HttpHeaders add(String name, Object value) {
        return add((CharSequence) name, value);
    }

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        String n = name.toString();
        String v = text(value);
        added(n, v);
        append(n, v);
        return this;
    }

    @Override
    public HttpHeaders add(String name, Iterable<?> values) {
        for (Object v : values) add(name, v);
        return this;
    }

    @Override
    public HttpHeaders addInt(CharSequence name, int value) {
        return add(name, Integer.toString(value));
    }

    @Override
    public HttpHeaders addShort(CharSequence name, short value) {
        return add(name, Short.toString(value));
    }

    @Override
    public HttpHeaders set(String name, Object value) {
        String v = text(value);
        remove(name);
        append(name, v);
        return this;
    }

    @Override
    public HttpHeaders set(String name, Iterable<?> values) {
        Objects.requireNonNull(values, "values");
        remove(name);
        for (Object v : values) append(name, text(v));
        return this;
    }

    @Override
    public HttpHeaders setInt(CharSequence name, int value) {
        return set(name.toString(), Integer.toString(value));
    }

    @Override
    public HttpHeaders setShort(CharSequence name, short value) {
        return set(name.toString(), Short.toString(value));
    }

    @Override
    public HttpHeaders remove(String name) {
        int kept = 0;
        for (int i = 0; i < used; i += 2) {
            if (!same(fields[i], name)) {
                fields[kept++] = fields[i];
                fields[kept++] = fields[i + 1];
            }
        }
        Arrays.fill(fields, kept, used, null);
        used = kept;
        return this;
    }

    @Override
    public HttpHeaders clear() {
        Arrays.fill(fields, 0, used, null);
        used = 0;
        return this;
    }

    @Override
    public String get(String name) {
        return get((CharSequence) name);
    }

    @Override
    public String get(CharSequence name) {
        for (int i = 0; i < used; i += 2) {
            if (same(fields[i], name)) return fields[i + 1];
        }
        return null;
    }

    @Override
    public List<String> getAll(String name) {
        return getAll((CharSequence) name);
    }

    @Override
    public List<String> getAll(CharSequence name) {
        List<String> values = new ArrayList<>(2);
        for (int i = 0; i < used; i += 2) {
            if (same(fields[i], name)) values.add(fields[i + 1]);
        }
        return values;
    }

    @Override
    public boolean contains(String name) {
        return get((CharSequence) name) != null;
    }

    @Override
    public boolean contains(CharSequence name) {
        return get(name) != null;
    }

    @Override
    public Integer getInt(CharSequence name) {
        String v = get(name);
        if (v == null) return null;
        try {
            return Integer.valueOf(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public int getInt(CharSequence name, int defaultValue) {
        Integer v = getInt(name);
        return v == null ? defaultValue : v;
    }

    @Override
    public Short getShort(CharSequence name) {
        String v = get(name);
        if (v == null) return null;
        try {
            return Short.valueOf(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public short getShort(CharSequence name, short defaultValue) {
        Short v = getShort(name);
        return v == null ? defaultValue : v;
    }

    @Override
    public Long getTimeMillis(CharSequence name) {
        String v = get(name);
        Date d = v == null ? null : DateFormatter.parseHttpDate(v);
        return d == null ? null : d.getTime();
    }

    @Override
    public long getTimeMillis(CharSequence name, long defaultValue) {
        Long v = getTimeMillis(name);
        return v == null ? defaultValue : v;
    }

    @Override
    public List<Map.Entry<String, String>> entries() {
        List<Map.Entry<String, String>> entries = new ArrayList<>(used / 2);
        for (Iterator<Map.Entry<String, String>> it = iterator(); it.hasNext(); ) entries.add(it.next());
        return entries;
    }

    @Override
    public Iterator<Map.Entry<String, String>> iterator() {
        return new Fields();
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Iterator<Map.Entry<CharSequence, CharSequence>> iteratorCharSequence() {
        return (Iterator) new Fields();
    }

    @Override
    public boolean isEmpty() {
        return used == 0;
    }

    @Override
    public int size() {
        return used / 2;
    }

    /** @return each name once (the first spelling that came), in arrival order */
    @Override
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        Set<String> folded = new HashSet<>();
        for (int i = 0; i < used; i += 2) {
            if (folded.add(fields[i].toLowerCase(Locale.ROOT))) names.add(fields[i]);
        }
        return names;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("RequestHeaders[");
        for (int i = 0; i < used; i += 2) {
            if (i > 0) b.append(", ");
            b.append(fields[i]).append(": ").append(fields[i + 1]);
        }
        return b.append(']').toString();
    }

    /** Called with each field {@code add} is given, before it is stored; {@code set} does not call it. */
    void added(String name, String value) {}

    /** Copies the fields into {@code target}, replacing its own. */
    final void copyFieldsTo(HeaderFields target) {
        target.fields = Arrays.copyOf(fields, Math.max(used, 2));
        target.used = used;
    }

    private void append(String name, String value) {
        Objects.requireNonNull(name, "name");
        if (used == fields.length) fields = Arrays.copyOf(fields, 2 * used);
        fields[used++] = name;
        fields[used++] = value;
    }

    private static boolean same(String a, CharSequence b) {
        return a.length() == b.length() && AsciiString.contentEqualsIgnoreCase(a, b);
    }

    /** A value as Netty's headers would hold it: dates in the HTTP date format, anything else as its text. */
    private static String text(Object value) {
        Objects.requireNonNull(value, "value");
        if (value instanceof Date d) return DateFormatter.format(d);
        if (value instanceof Calendar c) return DateFormatter.format(c.getTime());
        return value.toString();
    }

    /** The fields in order; {@code remove} drops the last one returned, {@code setValue} replaces its value. */
    private final class Fields implements Iterator<Map.Entry<String, String>> {
        private int next;
        private int last = -1;

        @Override
        public boolean hasNext() {
            return next < used;
        }

        @Override
        public Map.Entry<String, String> next() {
            if (next >= used) throw new NoSuchElementException();
            int at = last = next;
            next += 2;
            return new AbstractMap.SimpleEntry<>(fields[at], fields[at + 1]) {
                private static final long serialVersionUID = 1L;

                @Override
                public String setValue(String value) {
                    String v = text(value);
                    fields[at + 1] = v;
                    return super.setValue(v);
                }
            };
        }

        @Override
        public void remove() {
            if (last < 0) throw new IllegalStateException();
            System.arraycopy(fields, last + 2, fields, last, used - last - 2);
            used -= 2;
            fields[used] = null;
            fields[used + 1] = null;
            next = last;
            last = -1;
        }
    }
}
