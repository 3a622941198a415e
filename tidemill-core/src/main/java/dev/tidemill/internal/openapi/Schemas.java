package dev.tidemill.internal.openapi;

import dev.tidemill.internal.integration.OptionalDependency;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Java types as JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), in the shape the default JSON
 * codec reads and writes them: record components by name, enums by constant name, java.time as ISO
 * 8601 text. Records, beans and enums are hoisted into {@code components/schemas} and referred to
 * by {@code $ref}, so a type used twice (or by itself) is described once.
 *
 * <p>Nullability follows what binding accepts: a primitive is never null; any other property is
 * {@code type: [T, "null"]} (or {@code anyOf} a {@code $ref} and null) unless it carries
 * {@code @NotNull}, {@code @NotBlank} or {@code @NotEmpty}, which also make it required.
 * {@code Optional<T>} is T, not required, nullable.
 */
final class Schemas {
    /**
     * Whether constraints become schema keywords: {@link Constraints} reads Hibernate Validator's
     * annotation types, and without the jar no such annotation survives on a class anyway.
     */
    private static final boolean CONSTRAINTS = OptionalDependency.VALIDATION.present();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Map<String, ObjectNode> components = new TreeMap<>();
    private final Map<Class<?>, String> names = new HashMap<>();
    /** Where a {@code $ref} points: the document's components, or a standalone schema's {@code $defs}. */
    private final String refPrefix;

    /** @param reserved component names the document itself defines ({@code Problem}...): a user type gets a longer name */
    Schemas(Set<String> reserved) {
        this(reserved, "#/components/schemas/");
    }

    /** @param reserved as above @param refPrefix what a {@code $ref} starts with, before the type's name */
    Schemas(Set<String> reserved, String refPrefix) {
        this.refPrefix = refPrefix;
        for (String r : reserved) components.put(r, null);
    }

    /** @param name a reserved name @param schema its schema */
    void define(String name, ObjectNode schema) {
        components.put(name, schema);
    }

    /** @return every component, by name */
    Map<String, ObjectNode> components() {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        components.forEach((k, v) -> {
            if (v != null) out.put(k, v);
        });
        return out;
    }

    /** @param type a Java type @return its schema, not nullable, without constraints */
    ObjectNode of(Type type) {
        return of(type, null);
    }

    /**
     * @param type a Java type
     * @param annotated the same type with its type-use annotations (constraints on list elements), or null
     * @return its schema
     */
    ObjectNode of(Type type, AnnotatedType annotated) {
        if (type instanceof WildcardType w) return of(w.getUpperBounds()[0], null);
        if (type instanceof GenericArrayType g) {
            ObjectNode s = NODES.objectNode().put("type", "array");
            s.set("items", element(g.getGenericComponentType(), annotated));
            return s;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            Type[] args = p.getActualTypeArguments();
            AnnotatedType[] aargs = annotated instanceof AnnotatedParameterizedType ap ? ap.getAnnotatedActualTypeArguments() : null;
            if (Optional.class == raw) return constrained(args[0], aargs == null ? null : aargs[0]);
            if (Collection.class.isAssignableFrom(raw)) {
                ObjectNode s = NODES.objectNode().put("type", "array");
                s.set("items", constrained(args[0], aargs == null ? null : aargs[0]));
                if (Set.class.isAssignableFrom(raw)) s.put("uniqueItems", true);
                return s;
            }
            if (Map.class.isAssignableFrom(raw)) {
                ObjectNode s = NODES.objectNode().put("type", "object");
                s.set("additionalProperties", constrained(args[1], aargs == null ? null : aargs[1]));
                return s;
            }
            return of(raw, null);
        }
        if (!(type instanceof Class<?> c)) return NODES.objectNode(); // a type variable: anything
        ObjectNode scalar = scalar(c);
        if (scalar != null) return scalar;
        if (c.isArray()) {
            ObjectNode s = NODES.objectNode().put("type", "array");
            s.set("items", element(c.getComponentType(), annotated));
            return s;
        }
        if (Collection.class.isAssignableFrom(c)) return NODES.objectNode().put("type", "array");
        if (Map.class.isAssignableFrom(c)) return NODES.objectNode().put("type", "object");
        if (c == Object.class || c == Optional.class || c.isInterface()) return NODES.objectNode();
        return ref(c);
    }

    private ObjectNode element(Type component, AnnotatedType annotated) {
        return constrained(component, annotated instanceof AnnotatedArrayType aa ? aa.getAnnotatedGenericComponentType() : null);
    }

    /** A container's element: its schema with the constraints written on its type ({@code List<@NotBlank String>}). */
    private ObjectNode constrained(Type type, AnnotatedType annotated) {
        ObjectNode s = of(type, annotated);
        if (annotated != null && CONSTRAINTS) Constraints.apply(s, List.of(annotated.getAnnotations()));
        return s;
    }

    private static ObjectNode scalar(Class<?> c) {
        ObjectNode s = NODES.objectNode();
        if (c == String.class || CharSequence.class.isAssignableFrom(c)) return s.put("type", "string");
        if (c == char.class || c == Character.class) return s.put("type", "string").put("minLength", 1).put("maxLength", 1);
        if (c == boolean.class || c == Boolean.class) return s.put("type", "boolean");
        if (c == int.class || c == Integer.class) return s.put("type", "integer").put("format", "int32");
        if (c == long.class || c == Long.class) return s.put("type", "integer").put("format", "int64");
        if (c == short.class || c == Short.class) {
            return s.put("type", "integer").put("format", "int32").put("minimum", Short.MIN_VALUE).put("maximum", Short.MAX_VALUE);
        }
        if (c == byte.class || c == Byte.class) {
            return s.put("type", "integer").put("format", "int32").put("minimum", Byte.MIN_VALUE).put("maximum", Byte.MAX_VALUE);
        }
        if (c == double.class || c == Double.class) return s.put("type", "number").put("format", "double");
        if (c == float.class || c == Float.class) return s.put("type", "number").put("format", "float");
        if (c == BigInteger.class) return s.put("type", "integer");
        if (c == BigDecimal.class || c == Number.class) return s.put("type", "number");
        if (c == byte[].class) return s.put("type", "string").put("contentEncoding", "base64");
        if (c == UUID.class) return s.put("type", "string").put("format", "uuid");
        // a file part of a multipart form: OpenAPI 3.1 keeps 3.0's "format: binary" meaningful for tools, and
        // contentMediaType is the JSON Schema 2020-12 way to say the same
        if (c == dev.tidemill.Upload.class) {
            return s.put("type", "string").put("format", "binary").put("contentMediaType", "application/octet-stream");
        }
        if (c == LocalDate.class) return s.put("type", "string").put("format", "date");
        if (c == OffsetDateTime.class || c == Instant.class || c == ZonedDateTime.class) {
            return s.put("type", "string").put("format", "date-time");
        }
        if (c == Duration.class) return s.put("type", "string").put("format", "duration");
        if (c == URI.class || c == URL.class) return s.put("type", "string").put("format", "uri");
        if (c.getName().startsWith("java.time.")) return s.put("type", "string"); // LocalDateTime, LocalTime...: ISO 8601 text
        return null;
    }

    /** A record, bean or enum: hoisted once into the components, then referred to. */
    private ObjectNode ref(Class<?> c) {
        String name = names.get(c);
        if (name == null) {
            name = componentName(c);
            names.put(c, name);
            components.put(name, NODES.objectNode()); // placeholder first: a type that contains itself refers to it
            components.put(name, c.isEnum() ? enumSchema(c) : objectSchema(c));
        }
        return NODES.objectNode().put("$ref", refPrefix + name);
    }

    private String componentName(Class<?> c) {
        String simple = c.getSimpleName();
        if (!simple.isEmpty() && !components.containsKey(simple)) return simple;
        return c.getName().replace('$', '.');
    }

    private static ObjectNode enumSchema(Class<?> c) {
        ObjectNode s = NODES.objectNode().put("type", "string");
        ArrayNode values = s.putArray("enum");
        for (Object constant : c.getEnumConstants()) values.add(((Enum<?>) constant).name());
        return s;
    }

    private ObjectNode objectSchema(Class<?> c) {
        ObjectNode s = NODES.objectNode().put("type", "object");
        ObjectNode properties = s.putObject("properties");
        List<String> required = new ArrayList<>();
        for (Property p : properties(c)) {
            Map<Class<?>, Annotation> constraints = new LinkedHashMap<>();
            for (Annotation a : p.declared()) constraints.put(a.annotationType(), a);
            for (Annotation a : p.annotated().getAnnotations()) constraints.putIfAbsent(a.annotationType(), a);
            ObjectNode schema = of(p.type(), p.annotated());
            if (CONSTRAINTS) Constraints.apply(schema, constraints.values());
            boolean needed = CONSTRAINTS && Constraints.required(constraints.values());
            if (needed) required.add(p.name());
            Class<?> raw = p.annotated().getType() instanceof Class<?> k ? k : null;
            boolean primitive = raw != null && raw.isPrimitive();
            properties.set(p.name(), needed || primitive ? schema : nullable(schema));
        }
        if (!required.isEmpty()) {
            ArrayNode r = s.putArray("required");
            required.forEach(r::add);
        }
        return s;
    }

    /** @return the schema also admitting JSON null */
    static ObjectNode nullable(ObjectNode schema) {
        if (schema.isEmpty()) return schema; // anything: null included
        if (schema.has("type") && schema.get("type").isString() && !schema.has("enum") && !schema.has("const")) {
            ArrayNode types = NODES.arrayNode().add(schema.get("type").asString()).add("null");
            schema.set("type", types);
            return schema;
        }
        ObjectNode any = NODES.objectNode();
        any.putArray("anyOf").add(schema).addObject().put("type", "null");
        return any;
    }

    private record Property(String name, Type type, AnnotatedType annotated, List<Annotation> declared) {}

    /** A record's components, or a bean's instance fields (its superclasses' first), in declaration order. */
    private static List<Property> properties(Class<?> c) {
        List<Property> out = new ArrayList<>();
        if (c.isRecord()) {
            for (RecordComponent rc : c.getRecordComponents()) {
                // Jakarta constraints do not target record components: javac puts them on the field
                // and the accessor (and the type, as type-use annotations), so read those.
                List<Annotation> declared = new ArrayList<>(List.of(rc.getAccessor().getAnnotations()));
                try {
                    declared.addAll(List.of(c.getDeclaredField(rc.getName()).getAnnotations()));
                } catch (NoSuchFieldException e) {
                    throw new IllegalStateException(e); // every component has its field
                }
                out.add(new Property(rc.getName(), rc.getGenericType(), rc.getAnnotatedType(), declared));
            }
            return out;
        }
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) chain.add(0, k);
        for (Class<?> k : chain) {
            for (Field f : k.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) continue;
                out.add(new Property(f.getName(), f.getGenericType(), f.getAnnotatedType(), List.of(f.getAnnotations())));
            }
        }
        return out;
    }
}
