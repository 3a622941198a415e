package dev.tidemill.internal.codec;

import dev.tidemill.JsonCodec;
import dev.tidemill.Multipart;
import dev.tidemill.Upload;
import dev.tidemill.internal.integration.OptionalDependency;
import dev.tidemill.internal.multipart.FormParts;
import dev.tidemill.internal.multipart.UploadBinding;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.QueryString;
import dev.tidemill.internal.routing.TooManyParametersException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Binds a request body to a type and validates it: JSON through the app's {@link JsonCodec}, URL-encoded
 * and multipart forms through Jackson's value conversion, then Hibernate Validator when it is present
 * ({@link BeanValidation}). Every failure is a {@link ProblemException}: 415 for the content type,
 * 400 for malformed input, 422 for violations. Without Hibernate Validator a body type with
 * constraints is refused rather than bound unchecked ({@link #requireValidator}).
 */
public final class BodyBinder {
    /**
     * The forms mapper, built on the first form bound rather than at start: an app that never
     * binds a form never builds it (the holder idiom: the JVM initialises this class, once and
     * thread-safely, on first use).
     */
    private static final class Lazy {
        static final JacksonCodec FORMS = new JacksonCodec(true);
    }

    /** Whether Hibernate Validator is there to check constraints ({@link BeanValidation}). */
    private static final boolean VALIDATING = OptionalDependency.VALIDATION.present();

    /**
     * Whether a class file mentions Bean Validation: a constraint or {@code @Valid} on the type, a
     * field, a record component or an accessor. Read from the class's bytes, since without the
     * jar the JVM drops the annotations it cannot load and reflection would see none.
     */
    private static final ClassValue<Boolean> CONSTRAINED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            String file = "/" + type.getName().replace('.', '/') + ".class";
            try (java.io.InputStream in = type.getResourceAsStream(file)) {
                if (in == null) return false;
                String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                return bytes.contains("Ljakarta/validation/") || bytes.contains("Lorg/hibernate/validator/constraints/");
            } catch (java.io.IOException e) {
                return false;
            }
        }
    };

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
        if (VALIDATING) BeanValidation.validate(value);
        else requireValidator(value.getClass(), "a body of type " + value.getClass().getName() + " was bound");
    }

    /**
     * Fails when a type carries constraints and there is no validator to check them: a body
     * bound without its constraints checked would let through what the type says it refuses.
     * Called at start for every route that declares its body type, and on each bind.
     *
     * @param type a body type
     * @param where what bound or declared it, for the message
     * @throws IllegalStateException naming {@code org.hibernate.validator:hibernate-validator}
     */
    public static void requireValidator(Class<?> type, String where) {
        if (!VALIDATING && CONSTRAINED.get(type)) {
            OptionalDependency.VALIDATION.require(type.getName() + " has Bean Validation constraints and " + where);
        }
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
