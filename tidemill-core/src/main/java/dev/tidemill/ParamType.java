package dev.tidemill;

import dev.tidemill.internal.routing.Coercion;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * The type of a path or query parameter: how its text is coerced, and what an OpenAPI generator
 * calls it. A value that does not parse becomes one entry of a 422 problem's {@code errors}.
 *
 * @param <T> the Java type produced
 */
public final class ParamType<T> {
    /** Any text, as sent (after percent-decoding). */
    public static final ParamType<String> STRING =
            new ParamType<>("string", null, String.class, "string_type", Function.identity());
    /** 32-bit signed integer, decimal, optional leading {@code -} or {@code +}. */
    public static final ParamType<Integer> INT =
            new ParamType<>("integer", "int32", Integer.class, "int_parsing", Coercion::toInt);
    /** 64-bit signed integer, decimal. */
    public static final ParamType<Long> LONG =
            new ParamType<>("integer", "int64", Long.class, "int_parsing", Coercion::toLong);
    /** Finite double: {@code NaN} and infinities are refused. */
    public static final ParamType<Double> DOUBLE =
            new ParamType<>("number", "double", Double.class, "float_parsing", Coercion::toDouble);
    /** {@code true/1/yes/on} or {@code false/0/no/off}, case-insensitive. */
    public static final ParamType<Boolean> BOOLEAN =
            new ParamType<>("boolean", null, Boolean.class, "bool_parsing", Coercion::toBoolean);
    /** A UUID in its canonical 8-4-4-4-12 hex form (either case). */
    public static final ParamType<UUID> UUID_TYPE =
            new ParamType<>("string", "uuid", UUID.class, "uuid_parsing", Coercion::toUuid);
    /** ISO 8601 calendar date ({@code 2026-02-28}); impossible dates such as 2026-02-30 are refused. */
    public static final ParamType<LocalDate> LOCAL_DATE =
            new ParamType<>("string", "date", LocalDate.class, "date_parsing", Coercion::toLocalDate);
    /** ISO 8601 date-time with an offset or {@code Z}. */
    public static final ParamType<OffsetDateTime> OFFSET_DATE_TIME = new ParamType<>(
            "string", "date-time", OffsetDateTime.class, "datetime_parsing", Coercion::toOffsetDateTime);
    /** ISO 8601 instant: a date-time with an offset or {@code Z}, normalised to UTC. */
    public static final ParamType<Instant> INSTANT =
            new ParamType<>("string", "date-time", Instant.class, "datetime_parsing", Coercion::toInstant);

    private final String schemaType;
    private final String schemaFormat;
    private final Class<T> javaType;
    private final String errorType;
    private final Function<String, T> parser;

    private ParamType(String schemaType, String schemaFormat, Class<T> javaType, String errorType,
            Function<String, T> parser) {
        this.schemaType = schemaType;
        this.schemaFormat = schemaFormat;
        this.javaType = javaType;
        this.errorType = errorType;
        this.parser = parser;
    }

    /**
     * An enum type: the constant's name, matched case-insensitively.
     *
     * @param type the enum class
     * @param <E> the enum
     * @return the parameter type
     */
    public static <E extends Enum<E>> ParamType<E> enumOf(Class<E> type) {
        Objects.requireNonNull(type, "type");
        return new ParamType<>("string", null, type, "enum", s -> Coercion.toEnum(type, s));
    }

    /**
     * Coerces one value.
     *
     * @param text the percent-decoded text
     * @return the value
     * @throws IllegalArgumentException with a message fit for a 422 {@code msg} field
     */
    public T parse(String text) {
        return parser.apply(text);
    }

    /** @return the JSON-schema type name, e.g. {@code integer} */
    public String schemaType() {
        return schemaType;
    }

    /** @return the JSON-schema format, e.g. {@code int32}, if any */
    public java.util.Optional<String> schemaFormat() {
        return java.util.Optional.ofNullable(schemaFormat);
    }

    /** @return the Java type produced */
    public Class<T> javaType() {
        return javaType;
    }

    /** @return the {@code type} of a 422 error entry when a value does not parse, e.g. {@code int_parsing} */
    public String errorType() {
        return errorType;
    }

    @Override
    public String toString() {
        return javaType.getSimpleName();
    }
}
