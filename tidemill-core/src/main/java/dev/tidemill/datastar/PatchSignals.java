package dev.tidemill.datastar;

import dev.tidemill.SseEvent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Patches the page's signals (a JSON merge patch, RFC 7386: a {@code null} removes a signal):
 * {@code datastar-patch-signals} in 1.0, {@code datastar-merge-signals} (or
 * {@code datastar-remove-signals} for {@link Datastar#removeSignals}) before it. Made by
 * {@link Datastar#patchSignals(String)} and its siblings; immutable.
 */
public final class PatchSignals implements DatastarEvent {
    private final Dialect dialect;
    /** The patch, or null for a removal. */
    private final String json;
    /** The signal paths a removal removes, or null. */
    private final List<String> paths;
    private final boolean onlyIfMissing;
    private final EventOptions options;

    PatchSignals(Dialect dialect, String json, List<String> paths, boolean onlyIfMissing, EventOptions options) {
        this.dialect = dialect;
        this.json = json;
        this.paths = paths;
        this.onlyIfMissing = onlyIfMissing;
        this.options = options;
    }

    /**
     * @param only true: the client sets only signals it does not have yet; default false
     * @return a copy
     */
    public PatchSignals onlyIfMissing(boolean only) {
        return new PatchSignals(dialect, json, paths, only, options);
    }

    /** @param id the SSE event id (not empty, one line) @return a copy with it */
    public PatchSignals id(String id) {
        return new PatchSignals(dialect, json, paths, onlyIfMissing, options.withId(id));
    }

    /** @param retry the SSE reconnection delay; the default 1,000 ms is not sent @return a copy with it */
    public PatchSignals retry(Duration retry) {
        return new PatchSignals(dialect, json, paths, onlyIfMissing, options.withRetry(retry));
    }

    @Override
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public SseEvent sse() {
        DataLines d = new DataLines();
        if (paths != null && dialect == Dialect.PRE_1_0) {
            // beta.11 takes the paths to remove, one per `paths` line (watchers/removeSignals.js line 202).
            if (onlyIfMissing) throw new IllegalArgumentException("the pre-1.0 Datastar client removes signals unconditionally");
            for (String p : paths) d.line("paths", p);
            return d.event("datastar-remove-signals", options.id(), options.retry());
        }
        if (onlyIfMissing) d.line("onlyIfMissing", "true");
        d.lines("signals", json != null ? json : nulls(paths));
        return d.event(dialect == Dialect.V1_0 ? "datastar-patch-signals" : "datastar-merge-signals", options.id(), options.retry());
    }

    /**
     * The merge patch that removes {@code paths}: {@code {"a":null}} for {@code a}, and
     * {@code {"user":{"name":null}}} for the dotted {@code user.name} (a key with a dot in it
     * would name a signal literally called {@code user.name}). Written as {@code JSON.stringify}
     * writes it, so a patch of plain names is byte for byte the SDK's {@code removeSignals}.
     */
    static String nulls(List<String> paths) {
        Map<String, Object> root = new LinkedHashMap<>();
        for (String p : paths) {
            String[] keys = p.split("\\.", -1);
            Map<String, Object> at = root;
            for (int i = 0; i < keys.length - 1 && at != null; i++) {
                Object next = at.get(keys[i]);
                if (next == null && at.containsKey(keys[i])) {
                    at = null; // a parent is removed already, and with it this path
                } else {
                    if (next == null) {
                        next = new LinkedHashMap<String, Object>();
                        at.put(keys[i], next);
                    }
                    @SuppressWarnings("unchecked")
                    Map<String, Object> m = (Map<String, Object>) next;
                    at = m;
                }
            }
            if (at != null) at.put(keys[keys.length - 1], null);
        }
        StringBuilder b = new StringBuilder();
        write(b, root);
        return b.toString();
    }

    private static void write(StringBuilder b, Map<String, Object> m) {
        b.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (!first) b.append(',');
            first = false;
            dev.tidemill.internal.codec.JsonString.append(b, e.getKey());
            b.append(':');
            if (e.getValue() == null) {
                b.append("null");
            } else {
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) e.getValue();
                write(b, child);
            }
        }
        b.append('}');
    }

    @Override
    public String toString() {
        return sse().encode();
    }
}
