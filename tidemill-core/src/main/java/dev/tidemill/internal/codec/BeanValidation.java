package dev.tidemill.internal.codec;

import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;

/**
 * Hibernate Validator, the only class of the codec that references it or Jakarta Validation:
 * {@link BodyBinder} reaches it only when the jar is present.
 */
final class BeanValidation {
    private BeanValidation() {}

    /**
     * The validator, built on the first body bound rather than at start: an app that never calls
     * {@code Request.body(type)} never loads it (the holder idiom). Building it after a Jackson
     * mapper took 238-277 ms and loaded 524 Hibernate Validator, Jakarta Validation and JBoss
     * Logging classes (three fresh JVMs, {@code taskset -c 0}, JDK 25.0.3, Hibernate Validator
     * 9.1.6, 2-CPU VM, 2026-12-01).
     */
    private static final class Lazy {
        // ParameterMessageInterpolator: messages like "must not be blank" or "must be less than or equal
        // to 150" need no expression language, so no EL implementation rides along on the class path.
        static final Validator VALIDATOR = Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator(Set.of(Locale.ENGLISH), Locale.ENGLISH, false))
                .buildValidatorFactory()
                .getValidator(); // thread-safe; one for every app, as the factory already was
    }

    /** @throws ProblemException 422 listing every violation, sorted by location then kind */
    static void validate(Object value) {
        Set<ConstraintViolation<Object>> violations = Lazy.VALIDATOR.validate(value);
        if (violations.isEmpty()) return;
        List<Problem.FieldError> errors = new ArrayList<>(violations.size());
        for (ConstraintViolation<Object> v : violations) {
            List<String> loc = new ArrayList<>();
            loc.add("body");
            for (Path.Node n : v.getPropertyPath()) {
                // Hibernate puts a container's index or key on the node *inside* it: addresses[1].city
                // is nodes "addresses", then "city" with index 1. Emit the index first, and skip the
                // synthetic names of container elements ("<list element>", "<map value>").
                if (n.isInIterable()) {
                    if (n.getIndex() != null) loc.add(Integer.toString(n.getIndex()));
                    else if (n.getKey() != null) loc.add(String.valueOf(n.getKey()));
                }
                if (n.getName() != null && n.getKind() != jakarta.validation.ElementKind.CONTAINER_ELEMENT) {
                    loc.add(n.getName());
                }
            }
            String kind = kind(v.getConstraintDescriptor().getAnnotation());
            Object invalid = v.getInvalidValue();
            Optional<String> input = invalid == null || !isScalar(invalid)
                    ? Optional.empty() : Optional.of(truncate(String.valueOf(invalid)));
            errors.add(new Problem.FieldError(kind, loc, v.getMessage(), input));
        }
        errors.sort(Comparator.comparing((Problem.FieldError e) -> String.join("/", e.loc())).thenComparing(Problem.FieldError::type));
        throw new ProblemException(new Problem("about:blank", "Validation failed", 422, Optional.empty(), errors));
    }

    private static final AnnotationKinds KINDS = new AnnotationKinds();

    /** @return a constraint annotation's simple name ({@code NotBlank}), the violation's {@code type} */
    private static String kind(java.lang.annotation.Annotation a) {
        String kind = KINDS.get(a.getClass());
        return kind != null ? kind : a.annotationType().getSimpleName();
    }

    /**
     * The annotation interface's simple name per annotation class. An annotation object is a
     * {@code java.lang.reflect.Proxy}: {@code annotationType()} on it runs its invocation handler
     * with a {@code Method}, reflection on every violation. A proxy class implements the one
     * annotation interface, so its name is read once per class (a ClassValue, the JDK's per-class
     * cache); for a class that is no such proxy the value is null, and the annotation is asked.
     */
    static final class AnnotationKinds extends ClassValue<String> {
        @Override
        protected String computeValue(Class<?> type) {
            if (!java.lang.reflect.Proxy.isProxyClass(type)) return null;
            Class<?>[] interfaces = type.getInterfaces();
            return interfaces.length == 1 && interfaces[0].isAnnotation() ? interfaces[0].getSimpleName() : null;
        }
    }

    private static boolean isScalar(Object o) {
        return o instanceof CharSequence || o instanceof Number || o instanceof Boolean || o instanceof Enum<?>
                || o instanceof java.time.temporal.Temporal || o instanceof java.util.UUID;
    }

    private static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
