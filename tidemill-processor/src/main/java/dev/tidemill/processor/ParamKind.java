package dev.tidemill.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * A parameter's value type as {@code ParamType} knows it: the constant that coerces it, and how a
 * default written as text becomes a Java literal, checked here so that a bad default fails the
 * build rather than the start.
 *
 * @param paramType the expression of the {@code ParamType}, e.g. {@code ParamType.INT}
 * @param boxed the value's type in {@code Param<...>}
 * @param enumType the enum's element, for an enum; else null
 * @param label the name used in messages, e.g. {@code int}
 */
record ParamKind(CodeBlock paramType, TypeName boxed, TypeElement enumType, String label) {

    private static final Map<String, String> CONSTANTS = Map.ofEntries(
            Map.entry("java.lang.String", "STRING"), Map.entry("int", "INT"), Map.entry("java.lang.Integer", "INT"),
            Map.entry("long", "LONG"), Map.entry("java.lang.Long", "LONG"), Map.entry("double", "DOUBLE"),
            Map.entry("java.lang.Double", "DOUBLE"), Map.entry("boolean", "BOOLEAN"), Map.entry("java.lang.Boolean", "BOOLEAN"),
            Map.entry("java.util.UUID", "UUID_TYPE"), Map.entry("java.time.LocalDate", "LOCAL_DATE"),
            Map.entry("java.time.OffsetDateTime", "OFFSET_DATE_TIME"), Map.entry("java.time.Instant", "INSTANT"));

    /** The types a parameter may have, for messages. */
    static final String SUPPORTED = "String, int, long, double, boolean (or their boxes), UUID, LocalDate, OffsetDateTime, Instant or an enum";

    /** @return the kind of a scalar type, or null when ParamType has none for it */
    static ParamKind of(TypeMirror type, Types types) {
        String name = type.getKind().isPrimitive() ? type.toString() : erasure(type, types);
        String constant = CONSTANTS.get(name);
        if (constant != null) {
            TypeName boxed = type.getKind().isPrimitive() ? TypeName.get(type).box() : TypeName.get(types.erasure(type));
            return new ParamKind(CodeBlock.of("$T.$L", Names.PARAM_TYPE, constant), boxed, null, type.toString());
        }
        if (type.getKind() == TypeKind.DECLARED && ((DeclaredType) type).asElement().getKind() == ElementKind.ENUM) {
            TypeElement e = (TypeElement) ((DeclaredType) type).asElement();
            ClassName cn = ClassName.get(e);
            return new ParamKind(CodeBlock.of("$T.enumOf($T.class)", Names.PARAM_TYPE, cn), cn, e, e.getSimpleName().toString());
        }
        return null;
    }

    static String erasure(TypeMirror type, Types types) {
        return type.getKind() == TypeKind.DECLARED ? ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().toString()
                : types.erasure(type).toString();
    }

    /**
     * @param text the default as written
     * @param problem told what is wrong when the text does not parse
     * @return the Java expression of the value, or null after telling {@code problem}
     */
    CodeBlock literal(String text, Consumer<String> problem) {
        String n = boxed.toString();
        try {
            switch (n) {
                case "java.lang.String": return CodeBlock.of("$S", text);
                case "java.lang.Integer": return CodeBlock.of("$L", Integer.parseInt(text.strip()));
                case "java.lang.Long": return CodeBlock.of("$LL", Long.parseLong(text.strip()));
                case "java.lang.Double": {
                    double d = Double.parseDouble(text.strip());
                    if (!Double.isFinite(d)) throw new IllegalArgumentException("not finite");
                    return CodeBlock.of("$L", Double.toString(d));
                }
                case "java.lang.Boolean": {
                    String t = text.strip().toLowerCase(java.util.Locale.ROOT);
                    if (t.equals("true") || t.equals("false")) return CodeBlock.of("$L", t);
                    throw new IllegalArgumentException("not true or false");
                }
                case "java.util.UUID": return CodeBlock.of("$T.fromString($S)", UUID.class, UUID.fromString(text.strip()).toString());
                case "java.time.LocalDate": return CodeBlock.of("$T.parse($S)", java.time.LocalDate.class, java.time.LocalDate.parse(text.strip()).toString());
                case "java.time.OffsetDateTime": return CodeBlock.of("$T.parse($S)", java.time.OffsetDateTime.class, java.time.OffsetDateTime.parse(text.strip()).toString());
                case "java.time.Instant": return CodeBlock.of("$T.parse($S)", java.time.Instant.class, java.time.Instant.parse(text.strip()).toString());
                default: break;
            }
        } catch (RuntimeException e) {
            problem.accept("default value \"" + text + "\" is not a valid " + label + ": write one that is");
            return null;
        }
        if (enumType != null) {
            for (var c : enumType.getEnclosedElements()) {
                if (c.getKind() == ElementKind.ENUM_CONSTANT && c.getSimpleName().toString().equalsIgnoreCase(text.strip())) {
                    return CodeBlock.of("$T.$L", boxed, c.getSimpleName());
                }
            }
            problem.accept("default value \"" + text + "\" is no constant of " + label + ": name one of its constants");
        }
        return null;
    }
}
