package dev.tidemill.internal.multipart;

import dev.tidemill.Multipart;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A whole multipart form read for binding: text fields as strings (in their part's charset, UTF-8
 * by default), file parts as {@link StoredUpload}s. A file input left empty, which browsers send as
 * {@code filename=""} with no content, is no upload at all, so an optional {@code Upload} stays
 * null. Fields are bounded by {@code maxFieldBytes} and the count by {@code maxParts} in the parser.
 */
public final class FormParts {
    private FormParts() {}

    /**
     * @param form the parts, unread
     * @param memoryBytes {@code Limits.uploadMemoryBytes}: larger files go to a temporary file
     * @param onEnd where temporary files are registered for deletion when the request ends
     * @return every value by field name, in order: {@code String} or {@code dev.tidemill.Upload}
     */
    public static Map<String, List<Object>> read(Multipart form, int memoryBytes, Consumer<AutoCloseable> onEnd) {
        Map<String, List<Object>> fields = new LinkedHashMap<>();
        try {
            for (Multipart.Part p = form.next(); p != null; p = form.next()) {
                Object value;
                if (p.filename().isEmpty()) {
                    value = new String(readAll(p.content()), charset(p.contentType()));
                } else {
                    StoredUpload u = StoredUpload.store(p, memoryBytes, onEnd);
                    if (u.size() == 0 && p.filename().get().isEmpty()) continue;
                    value = u;
                }
                fields.computeIfAbsent(p.name(), k -> new ArrayList<>(1)).add(value);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fields;
    }

    /**
     * Refuses a file sent for a record component that is not an {@code Upload} (or a list of
     * them): Jackson would bind the upload's {@code toString()} to a {@code String}.
     *
     * @param fields what {@link #read} returned
     * @param type the binding's target
     * @throws dev.tidemill.ProblemException 400 naming the part
     */
    public static void checkFiles(Map<String, List<Object>> fields, Class<?> type) {
        for (String name : NOT_UPLOADS.get(type)) {
            List<Object> values = fields.get(name);
            if (values == null || values.stream().noneMatch(v -> v instanceof dev.tidemill.Upload)) continue;
            throw new dev.tidemill.ProblemException(dev.tidemill.Problem.of(400, "Malformed form",
                    "part " + Refusal.quoted(name) + " is a file; its component is not an Upload"));
        }
    }

    // Reading a record's components is reflection: it is done once per target type, not on every bind.
    // A ClassValue is the JDK's per-class cache; it holds only names, so it keeps no class loader alive.
    private static final UploadComponents NOT_UPLOADS = new UploadComponents();

    /**
     * Per binding target: its record components that are not an {@code Upload} (nor a collection of
     * them), in declaration order; none for a type that is not a record. The only reflective code
     * of the multipart binding, run once per type.
     */
    static final class UploadComponents extends ClassValue<String[]> {
        @Override
        protected String[] computeValue(Class<?> type) {
            if (!type.isRecord()) return new String[0];
            List<String> names = new ArrayList<>();
            for (java.lang.reflect.RecordComponent c : type.getRecordComponents()) {
                if (!takesUploads(c.getGenericType())) names.add(c.getName());
            }
            return names.toArray(String[]::new);
        }

        private static boolean takesUploads(java.lang.reflect.Type t) {
            if (t == dev.tidemill.Upload.class) return true;
            return t instanceof java.lang.reflect.ParameterizedType p && p.getRawType() instanceof Class<?> raw
                    && java.util.Collection.class.isAssignableFrom(raw) && p.getActualTypeArguments()[0] == dev.tidemill.Upload.class;
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    private static Charset charset(String contentType) {
        int at = contentType.toLowerCase(java.util.Locale.ROOT).indexOf("charset=");
        if (at < 0) return StandardCharsets.UTF_8;
        String name = contentType.substring(at + 8).split(";", 2)[0].replace("\"", "").trim();
        try {
            return Charset.forName(name);
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
