package dev.tidemill.internal.codec;

import dev.tidemill.JsonCodec;
import dev.tidemill.Multipart;
import dev.tidemill.Upload;
import dev.tidemill.internal.multipart.FormParts;
import dev.tidemill.internal.multipart.UploadBinding;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.QueryString;
import dev.tidemill.internal.routing.TooManyParametersException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;

/**
 * Binds a request body to a type and validates it: JSON through the app's {@link JsonCodec}, URL-encoded
 * and multipart forms through Jackson's value conversion, then Hibernate Validator. Every failure is a
 * {@link ProblemException}: 415 for the content type, 400 for malformed input, 422 for violations.
 */
public final class BodyBinder {
    /**
     * Hibernate Validator and the forms mapper, built on the first body bound rather than at
     * start: an app that never calls {@code Request.body(type)} never loads either (the holder
     * idiom: the JVM initialises this class, once and thread-safely, on first use). Building the
     * validator after a Jackson mapper took 238-277 ms and loaded 524 Hibernate Validator, Jakarta
     * Validation and JBoss Logging classes (three fresh JVMs, {@code taskset -c 0}, JDK 25.0.3,
     * Hibernate Validator 9.1.6, 2-CPU VM, 2026-12-01).
     */
    private static final class Lazy {
        // ParameterMessageInterpolator: messages like "must not be blank" or "must be less than or equal
        // to 150" need no expression language, so no EL implementation rides along on the class path.
        static final Validator VALIDATOR = Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator(Set.of(Locale.ENGLISH), Locale.ENGLISH, false))
                .buildValidatorFactory()
                .getValidator(); // thread-safe; one for every app, as the factory already was
        static final JacksonCodec FORMS = new JacksonCodec(true);
    }

    /** The forms mapper that also carries uploads, built on the first multipart form bound. */
    private static final class LazyMultipart {
        static final tools.jackson.databind.json.JsonMapper MAPPER = UploadBinding.mapper(Lazy.FORMS.mapper());
    }

    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String MULTIPART = "multipart/form-data";

    private final JsonCodec json;

    private final int maxFormFields;

    /**
     * @param json the app's codec, for JSON bodies
     * @param maxFormFields the most fields a form body may hold ({@link dev.tidemill.Limits#maxQueryPairs()})
     */
    public BodyBinder(JsonCodec json, int maxFormFields) {
        this.json = json;
        this.maxFormFields = maxFormFields;
    }

    /**
     * @param contentType the request's {@code Content-Type}, if any
     * @param body the body bytes
     * @param type target type
     * @param <T> target type
     * @return the bound and valid value
     */
    public <T> T bind(Optional<String> contentType, byte[] body, Class<T> type) {
        return bind(contentType, body, type, Optional.empty());
    }

    /**
     * @param contentType the request's {@code Content-Type}, if any
     * @param body the body bytes
     * @param type target type
     * @param declared the one media type the route declared ({@code application/json},
     *     {@code application/x-www-form-urlencoded} or {@code multipart/form-data}, which this
     *     method always refuses: see {@link #bindMultipart}); empty to take JSON or a URL-encoded form
     * @param <T> target type
     * @return the bound and valid value
     */
    public <T> T bind(Optional<String> contentType, byte[] body, Class<T> type, Optional<String> declared) {
        String mediaType = contentType.map(BodyBinder::mediaType).orElse("");
        boolean isJson = mediaType.equals("application/json") || mediaType.endsWith("+json");
        boolean isForm = mediaType.equals("application/x-www-form-urlencoded");
        if (declared.isPresent() && (declared.get().equals(MULTIPART) || (declared.get().equals(FORM) ? !isForm : !isJson))) {
            throw new ProblemException(Problem.of(415, "Unsupported Media Type",
                    (contentType.isEmpty() ? "Content-Type is missing" : "this route takes one media type")
                            + "; expected " + declared.get()));
        }
        T value;
        if (isJson) {
            try {
                value = json.read(body, type);
            } catch (JsonCodec.MalformedJsonException e) {
                throw new ProblemException(Problem.of(400, "Malformed JSON", e.getMessage()));
            }
            if (value == null) throw new ProblemException(Problem.of(400, "Malformed JSON", "the body is JSON null"));
        } else if (isForm) {
            value = bindForm(body, charset(contentType.get()), type);
        } else {
            throw new ProblemException(Problem.of(415, "Unsupported Media Type",
                    contentType.isEmpty()
                            ? "Content-Type is missing; expected application/json, application/x-www-form-urlencoded or multipart/form-data"
                            : "expected application/json, application/x-www-form-urlencoded or multipart/form-data"));
        }
        validate(value);
        return value;
    }

    /**
     * Binds a {@code multipart/form-data} body: text fields as a URL-encoded form's are bound (a
     * list component collects repeats), file parts into components of type {@link Upload} or
     * {@code List<Upload>}; then validates.
     *
     * @param form the parts, unread
     * @param type target type
     * @param declared the one media type the route declared, empty to take any
     * @param memoryBytes {@link dev.tidemill.Limits#uploadMemoryBytes()}: larger files are spooled to a temporary file
     * @param onEnd where each temporary file's deletion is registered (the request's end)
     * @param <T> target type
     * @return the bound and valid value
     */
    public <T> T bindMultipart(Multipart form, Class<T> type, Optional<String> declared, int memoryBytes,
            Consumer<AutoCloseable> onEnd) {
        if (declared.isPresent() && !declared.get().equals(MULTIPART)) {
            throw new ProblemException(Problem.of(415, "Unsupported Media Type",
                    "this route takes one media type; expected " + declared.get()));
        }
        Map<String, List<Object>> fields = FormParts.read(form, memoryBytes, onEnd);
        FormParts.checkFiles(fields, type);
        Map<String, Object> shaped = new LinkedHashMap<>();
        fields.forEach((k, v) -> shaped.put(k, v.size() == 1 ? v.get(0) : v));
        T value;
        try {
            value = LazyMultipart.MAPPER.convertValue(shaped, type);
        } catch (RuntimeException e) {
            String msg = e.getMessage() == null ? "" : e.getMessage();
            int nl = msg.indexOf('\n');
            throw new ProblemException(Problem.of(400, "Malformed form", nl >= 0 ? msg.substring(0, nl) : msg));
        }
        validate(value);
        return value;
    }

    private <T> T bindForm(byte[] body, Charset cs, Class<T> type) {
        Map<String, List<String>> fields;
        try {
            fields = QueryString.parseForm(body, cs, maxFormFields);
        } catch (MalformedEncodingException e) {
            throw new ProblemException(Problem.of(400, "Malformed form", e.getMessage()));
        } catch (TooManyParametersException e) {
            throw new ProblemException(Problem.of(413, "Content Too Large", "too many form fields (limit " + maxFormFields + ", maxQueryPairs)"));
        }
        Map<String, Object> shaped = new LinkedHashMap<>();
        fields.forEach((k, v) -> shaped.put(k, v.size() == 1 ? v.get(0) : v));
        try {
            return Lazy.FORMS.mapper().convertValue(shaped, type);
        } catch (RuntimeException e) {
            String msg = e.getMessage() == null ? "" : e.getMessage();
            int nl = msg.indexOf('\n');
            throw new ProblemException(Problem.of(400, "Malformed form", nl >= 0 ? msg.substring(0, nl) : msg));
        }
    }

    private void validate(Object value) {
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
            String kind = v.getConstraintDescriptor().getAnnotation().annotationType().getSimpleName();
            Object invalid = v.getInvalidValue();
            Optional<String> input = invalid == null || !isScalar(invalid)
                    ? Optional.empty() : Optional.of(truncate(String.valueOf(invalid)));
            errors.add(new Problem.FieldError(kind, loc, v.getMessage(), input));
        }
        errors.sort(Comparator.comparing((Problem.FieldError e) -> String.join("/", e.loc())).thenComparing(Problem.FieldError::type));
        throw new ProblemException(new Problem("about:blank", "Validation failed", 422, Optional.empty(), errors));
    }

    private static boolean isScalar(Object o) {
        return o instanceof CharSequence || o instanceof Number || o instanceof Boolean || o instanceof Enum<?>
                || o instanceof java.time.temporal.Temporal || o instanceof java.util.UUID;
    }

    private static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** @param contentType header value @return its media type, lower case, without parameters */
    public static String mediaType(String contentType) {
        int semi = contentType.indexOf(';');
        return (semi >= 0 ? contentType.substring(0, semi) : contentType).trim().toLowerCase(Locale.ROOT);
    }

    /** @param contentType header value @return its charset parameter, UTF-8 when absent or unknown */
    public static Charset charset(String contentType) {
        for (String part : contentType.split(";")) {
            String p = part.trim();
            if (p.regionMatches(true, 0, "charset=", 0, 8)) {
                String name = p.substring(8).replace("\"", "").trim();
                try {
                    return Charset.forName(name);
                } catch (RuntimeException e) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }
}
