package dev.tidemill.internal.openapi;

import jakarta.validation.constraints.AssertFalse;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.hibernate.validator.constraints.Length;
import org.hibernate.validator.constraints.Range;
import org.hibernate.validator.constraints.URL;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bean Validation constraints as JSON Schema keywords, the table in docs/openapi.md. A constraint
 * with no JSON Schema equivalent ({@code @Past}, {@code @Digits}, a custom one) is left out: the
 * schema then accepts more than the validator, never less.
 */
final class Constraints {
    private Constraints() {}

    /** @return whether these annotations make the value required and not null */
    static boolean required(Collection<Annotation> annotations) {
        for (Annotation a : annotations) {
            if (a instanceof NotNull || a instanceof NotBlank || a instanceof NotEmpty) return true;
        }
        return false;
    }

    /**
     * Adds the keywords to a schema of a JSON type ({@code string}, {@code integer}, {@code number},
     * {@code array}, {@code object}, {@code boolean}); a {@code $ref} schema takes none.
     *
     * @param schema the schema, changed in place
     * @param annotations the value's constraints
     */
    static void apply(ObjectNode schema, Collection<Annotation> annotations) {
        String type = schema.has("type") ? schema.get("type").asString() : "";
        boolean string = type.equals("string");
        boolean array = type.equals("array");
        boolean object = type.equals("object");
        boolean number = type.equals("integer") || type.equals("number");
        List<String> patterns = new ArrayList<>();
        for (Annotation a : annotations) {
            switch (a) {
                case NotBlank n when string -> {
                    atLeast(schema, "minLength", 1);
                    patterns.add("\\S"); // Bean Validation: at least one character that is not white space
                }
                case NotEmpty n -> {
                    if (string) atLeast(schema, "minLength", 1);
                    if (array) atLeast(schema, "minItems", 1);
                    if (object) atLeast(schema, "minProperties", 1);
                }
                case Size s -> sizes(schema, string, array, object, s.min(), s.max());
                case Length l when string -> sizes(schema, true, false, false, l.min(), l.max());
                case Min m when number -> schema.put("minimum", m.value());
                case Max m when number -> schema.put("maximum", m.value());
                case Range r when number -> {
                    schema.put("minimum", r.min());
                    schema.put("maximum", r.max());
                }
                case DecimalMin m when number -> schema.put(m.inclusive() ? "minimum" : "exclusiveMinimum", new BigDecimal(m.value()));
                case DecimalMax m when number -> schema.put(m.inclusive() ? "maximum" : "exclusiveMaximum", new BigDecimal(m.value()));
                case Positive p when number -> schema.put("exclusiveMinimum", 0);
                case PositiveOrZero p when number -> schema.put("minimum", 0);
                case Negative n when number -> schema.put("exclusiveMaximum", 0);
                case NegativeOrZero n when number -> schema.put("maximum", 0);
                // Bean Validation matches the whole value; a JSON Schema pattern matches anywhere, hence the anchors.
                case Pattern p when string -> patterns.add("^(?:" + p.regexp() + ")$");
                case Email e when string -> {
                    schema.put("format", "email");
                    if (!e.regexp().equals(".*")) patterns.add("^(?:" + e.regexp() + ")$");
                }
                case URL u when string -> schema.put("format", "uri");
                case AssertTrue t -> schema.put("const", true);
                case AssertFalse f -> schema.put("const", false);
                default -> { }
            }
        }
        // One schema holds one pattern; further ones go into allOf, where each must match too.
        if (!patterns.isEmpty()) schema.put("pattern", patterns.get(0));
        if (patterns.size() > 1) {
            ArrayNode all = schema.putArray("allOf");
            for (String p : patterns.subList(1, patterns.size())) all.addObject().put("pattern", p);
        }
    }

    private static void sizes(ObjectNode schema, boolean string, boolean array, boolean object, int min, int max) {
        String lo = string ? "minLength" : array ? "minItems" : object ? "minProperties" : null;
        String hi = string ? "maxLength" : array ? "maxItems" : object ? "maxProperties" : null;
        if (lo == null) return;
        if (min > 0) atLeast(schema, lo, min);
        if (max < Integer.MAX_VALUE) schema.put(hi, max);
    }

    private static void atLeast(ObjectNode schema, String keyword, int value) {
        if (!schema.has(keyword) || schema.get(keyword).asInt() < value) schema.put(keyword, value);
    }
}
