package dev.tidemill.datastar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A backend action, {@code @get('/url', {options})} and its siblings: the request a page element
 * makes (with the page's signals) when an expression runs it, answered by an event stream. Put it
 * in an attribute with {@link Datastar#on(String, Action)}, or into a longer expression with
 * {@link Datastar#expression(Action)}. Immutable; unset options are not written, so the client's
 * defaults apply (shown with each setter).
 *
 * <p>The URL and every string option are written as JavaScript string literals that nothing can
 * end early (quotes, backslashes, {@code <}, {@code $}, {@code @} and line breaks are
 * {@code \xNN} escapes), and the builder then escapes the whole expression for its attribute.
 */
public final class Action {
    private final String method;
    private final String url;
    private final boolean form;
    private final String selector;
    private final List<String> headers; // name, value...
    private final Boolean includeLocal;
    private final String include;
    private final String exclude;
    private final Boolean openWhenHidden;
    private final Duration retryInterval;
    private final Double retryScaler;
    private final Duration retryMaxWait;
    private final Integer retryMaxCount;

    private Action(String method, String url, boolean form, String selector, List<String> headers, Boolean includeLocal,
            String include, String exclude, Boolean openWhenHidden, Duration retryInterval, Double retryScaler,
            Duration retryMaxWait, Integer retryMaxCount) {
        this.method = method;
        this.url = url;
        this.form = form;
        this.selector = selector;
        this.headers = headers;
        this.includeLocal = includeLocal;
        this.include = include;
        this.exclude = exclude;
        this.openWhenHidden = openWhenHidden;
        this.retryInterval = retryInterval;
        this.retryScaler = retryScaler;
        this.retryMaxWait = retryMaxWait;
        this.retryMaxCount = retryMaxCount;
    }

    private static Action of(String method, String url) {
        Objects.requireNonNull(url, "url");
        if (url.isEmpty()) throw new IllegalArgumentException("an action's URL is not empty");
        return new Action(method, url, false, null, List.of(), null, null, null, null, null, null, null, null);
    }

    /** @param url where to send it (signals go in the {@code datastar} query parameter) @return {@code @get(url)} */
    public static Action get(String url) {
        return of("get", url);
    }

    /** @param url where to send it (signals go in the JSON body) @return {@code @post(url)} */
    public static Action post(String url) {
        return of("post", url);
    }

    /** @param url where to send it @return {@code @put(url)} */
    public static Action put(String url) {
        return of("put", url);
    }

    /** @param url where to send it @return {@code @patch(url)} */
    public static Action patch(String url) {
        return of("patch", url);
    }

    /** @param url where to send it @return {@code @delete(url)} */
    public static Action delete(String url) {
        return of("delete", url);
    }

    private Action copy(boolean form, String selector, List<String> headers, Boolean includeLocal, String include,
            String exclude, Boolean openWhenHidden, Duration retryInterval, Double retryScaler, Duration retryMaxWait,
            Integer retryMaxCount) {
        return new Action(method, url, form, selector, headers, includeLocal, include, exclude, openWhenHidden, retryInterval,
                retryScaler, retryMaxWait, retryMaxCount);
    }

    /**
     * Sends the closest form (or the one {@link #selector} names) instead of the signals:
     * {@code contentType: 'form'}. Default: the signals, as JSON.
     *
     * @return a copy
     */
    public Action form() {
        return copy(true, selector, headers, includeLocal, include, exclude, openWhenHidden, retryInterval, retryScaler,
                retryMaxWait, retryMaxCount);
    }

    /** @param selector the form to send, with {@link #form()}; default the closest one @return a copy */
    public Action selector(String selector) {
        return copy(form, Objects.requireNonNull(selector, "selector"), headers, includeLocal, include, exclude,
                openWhenHidden, retryInterval, retryScaler, retryMaxWait, retryMaxCount);
    }

    /** @param name a request header's name @param value its value @return a copy that also sends it */
    public Action header(String name, String value) {
        List<String> h = new ArrayList<>(headers);
        h.add(Objects.requireNonNull(name, "name"));
        h.add(Objects.requireNonNull(value, "value"));
        return copy(form, selector, List.copyOf(h), includeLocal, include, exclude, openWhenHidden, retryInterval,
                retryScaler, retryMaxWait, retryMaxCount);
    }

    /**
     * @param include also send local signals (those whose name starts with {@code _}); default
     *     false. Pre-1.0: {@code includeLocal: true}; 1.0 has no such option, and gets
     *     {@code filterSignals} with an exclusion that matches nothing.
     * @return a copy
     */
    public Action includeLocal(boolean include) {
        return copy(form, selector, headers, include, this.include, exclude, openWhenHidden, retryInterval, retryScaler,
                retryMaxWait, retryMaxCount);
    }

    /**
     * 1.0 only: which signals to send, by JavaScript regular expressions over their dotted paths
     * ({@code filterSignals: {include, exclude}}; the client's defaults are all, and none but the
     * local {@code _} ones).
     *
     * @param include the paths to send, e.g. {@code ^todo\.}
     * @param exclude the paths to leave out among them
     * @return a copy
     */
    public Action filterSignals(String include, String exclude) {
        return copy(form, selector, headers, includeLocal, Objects.requireNonNull(include, "include"),
                Objects.requireNonNull(exclude, "exclude"), openWhenHidden, retryInterval, retryScaler, retryMaxWait,
                retryMaxCount);
    }

    /** @param open keep the request open while the page is hidden (beta.11 default false) @return a copy */
    public Action openWhenHidden(boolean open) {
        return copy(form, selector, headers, includeLocal, include, exclude, open, retryInterval, retryScaler, retryMaxWait,
                retryMaxCount);
    }

    /** @param interval the first reconnection delay, whole ms; client default 1,000 ms @return a copy */
    public Action retryInterval(Duration interval) {
        return copy(form, selector, headers, includeLocal, include, exclude, openWhenHidden, positive(interval), retryScaler,
                retryMaxWait, retryMaxCount);
    }

    /** @param scaler what each reconnection delay is multiplied by, finite and positive; client default 2 @return a copy */
    public Action retryScaler(double scaler) {
        if (!(scaler > 0) || Double.isInfinite(scaler)) throw new IllegalArgumentException("retryScaler is finite and positive");
        return copy(form, selector, headers, includeLocal, include, exclude, openWhenHidden, retryInterval, scaler,
                retryMaxWait, retryMaxCount);
    }

    /** @param max the longest reconnection delay, whole ms; client default 30,000 ms @return a copy */
    public Action retryMaxWait(Duration max) {
        return copy(form, selector, headers, includeLocal, include, exclude, openWhenHidden, retryInterval, retryScaler,
                positive(max), retryMaxCount);
    }

    /** @param count reconnections before giving up, not negative; client default 10 @return a copy */
    public Action retryMaxCount(int count) {
        if (count < 0) throw new IllegalArgumentException("retryMaxCount is not negative");
        return copy(form, selector, headers, includeLocal, include, exclude, openWhenHidden, retryInterval, retryScaler,
                retryMaxWait, count);
    }

    private static Duration positive(Duration d) {
        if (d.isNegative()) throw new IllegalArgumentException("a retry delay is not negative");
        return d;
    }

    /**
     * @param dialect the client's dialect
     * @return the expression, e.g. {@code @post('/todos', {contentType: 'form'})}
     * @throws IllegalArgumentException for {@link #filterSignals} in {@link Dialect#PRE_1_0}, or
     *     both it and {@link #includeLocal} in 1.0
     */
    String expression(Dialect dialect) {
        List<String> o = new ArrayList<>();
        if (form) o.add("contentType: 'form'");
        if (selector != null) o.add("selector: " + Js.quote(selector));
        if (!headers.isEmpty()) {
            StringBuilder h = new StringBuilder("headers: {");
            for (int i = 0; i < headers.size(); i += 2) {
                if (i > 0) h.append(", ");
                h.append(Js.quote(headers.get(i))).append(": ").append(Js.quote(headers.get(i + 1)));
            }
            o.add(h.append('}').toString());
        }
        if (dialect == Dialect.PRE_1_0) {
            if (include != null) {
                throw new IllegalArgumentException("the pre-1.0 Datastar client has no filterSignals (only includeLocal)");
            }
            if (includeLocal != null) o.add("includeLocal: " + includeLocal);
        } else if (include != null) {
            if (includeLocal != null) throw new IllegalArgumentException("set filterSignals or includeLocal, not both");
            o.add("filterSignals: {include: new RegExp(" + Js.quote(include) + "), exclude: new RegExp(" + Js.quote(exclude) + ")}");
        } else if (Boolean.TRUE.equals(includeLocal)) {
            // (?!) matches no path, so nothing is left out, local signals included.
            o.add("filterSignals: {exclude: new RegExp('(?!)')}");
        }
        if (openWhenHidden != null) o.add("openWhenHidden: " + openWhenHidden);
        if (retryInterval != null) o.add("retryInterval: " + retryInterval.toMillis());
        if (retryScaler != null) o.add("retryScaler: " + number(retryScaler));
        if (retryMaxWait != null) o.add("retryMaxWaitMs: " + retryMaxWait.toMillis());
        if (retryMaxCount != null) o.add("retryMaxCount: " + retryMaxCount);
        String call = "@" + method + "(" + Js.quote(url);
        return o.isEmpty() ? call + ")" : call + ", {" + String.join(", ", o) + "})";
    }

    private static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    @Override
    public String toString() {
        return expression(Dialect.V1_0);
    }
}
