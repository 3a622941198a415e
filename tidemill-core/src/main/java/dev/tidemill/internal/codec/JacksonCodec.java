package dev.tidemill.internal.codec;

import dev.tidemill.JsonCodec;
import dev.tidemill.Limits;
import java.io.OutputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default {@link JsonCodec}: Jackson 3 with bounded input ({@link Limits#maxJsonNestingDepth()},
 * {@link Limits#maxJsonNumberLength()}, {@link Limits#maxJsonStringLength()}; the body limit bounds
 * them anyway) and strict duplicate detection, so hostile JSON gets a 400 rather than a stack
 * overflow or a 500.
 */
public final class JacksonCodec implements JsonCodec {
    /** Tidemill's default codec with the default limits: what an app without {@code Tidemill.json(...)} uses, made once. */
    public static final JacksonCodec DEFAULT = new JacksonCodec();
    private final boolean forms;
    private final Limits limits;
    /**
     * Built on first use, not at start: an app whose first requests are not JSON does not wait for
     * it. Building this mapper first thing in a fresh JVM took 316-339 ms and loaded 465 Jackson
     * classes (three runs, {@code taskset -c 0}, JDK 25.0.3, Jackson 3.3.0, 2-CPU VM, 2026-12-01).
     */
    private volatile JsonMapper mapper;

    /** Creates the codec with Tidemill's defaults: strict JSON types ("30" is not an int, 30.5 is not either). */
    public JacksonCodec() {
        this(false, Limits.DEFAULTS);
    }

    /** @param limits where the JSON limits come from */
    public JacksonCodec(Limits limits) {
        this(false, limits);
    }

    /**
     * @param forms true for the mapper that binds URL-encoded forms: every form value is text, so
     *     text converts to numbers and booleans, and a key sent once still binds to a list
     */
    public JacksonCodec(boolean forms) {
        this(forms, Limits.DEFAULTS);
    }

    private JacksonCodec(boolean forms, Limits limits) {
        this.forms = forms;
        this.limits = limits;
    }

    /** @return the underlying mapper, for code that needs Jackson's tree model */
    public JsonMapper mapper() {
        JsonMapper m = mapper;
        if (m != null) return m;
        synchronized (this) {
            if (mapper == null) mapper = build(forms, limits);
            return mapper;
        }
    }

    private static JsonMapper build(boolean forms, Limits limits) {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(limits.maxJsonNestingDepth())
                        .maxNumberLength(limits.maxJsonNumberLength())
                        .maxStringLength(limits.maxJsonStringLength())
                        .build())
                .build();
        JsonMapper.Builder b = JsonMapper.builder(factory)
                .enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        if (forms) {
            b.enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);
        } else {
            b.disable(tools.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        }
        return b.build();
    }

    @Override
    public void write(Object value, OutputStream out) {
        mapper().writeValue(out, value);
    }

    @Override
    public <T> T read(byte[] json, Class<T> type) {
        try {
            return mapper().readValue(json, type);
        } catch (JacksonException e) {
            throw new MalformedJsonException(describe(e));
        }
    }

    /** A short message without the source excerpt Jackson appends (it may echo secrets). */
    private static String describe(JacksonException e) {
        String msg = e.getOriginalMessage();
        if (msg == null) msg = e.getClass().getSimpleName();
        int nl = msg.indexOf('\n');
        if (nl >= 0) msg = msg.substring(0, nl);
        if (msg.length() > 200) msg = msg.substring(0, 200) + "...";
        TokenStreamLocation loc = e.getLocation();
        if (loc != null && loc.getLineNr() > 0) {
            msg += " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
        }
        return msg;
    }
}
