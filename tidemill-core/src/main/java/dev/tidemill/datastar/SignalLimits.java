package dev.tidemill.datastar;

/**
 * How much of a request's signals {@link Datastar#readSignals} accepts. Signals are whatever the
 * page (or anyone imitating it) sends, so they are read as untrusted input: too large is a 413,
 * too deep or not a JSON object a 400, both {@code application/problem+json} naming the limit.
 *
 * @param maxBytes the UTF-8 bytes of the signals' JSON (the {@code datastar} query parameter once
 *     decoded, or the body); 1-1,073,741,824; default 1,048,576 (1 MiB). Signals are a page's UI
 *     state, kilobytes in practice; the app's body limit (16 MiB by default) bounds what is read,
 *     this bounds what is parsed and bound on every keystroke a page sends.
 * @param maxDepth nesting of objects and arrays, the outer object being 1; 1-1,000; default 64.
 *     Signals nest by dotted paths a handful of levels deep; checked by a scan before the JSON
 *     codec runs, so a replaced codec without its own bound is still safe.
 */
public record SignalLimits(int maxBytes, int maxDepth) {
    /** 1 MiB and 64 levels. */
    public static final SignalLimits DEFAULTS = new SignalLimits(1 << 20, 64);

    /** Checks the ranges. */
    public SignalLimits {
        if (maxBytes < 1 || maxBytes > 1 << 30) throw new IllegalArgumentException("maxBytes is 1-1073741824, not " + maxBytes);
        if (maxDepth < 1 || maxDepth > 1_000) throw new IllegalArgumentException("maxDepth is 1-1000, not " + maxDepth);
    }
}
