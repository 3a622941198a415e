package dev.tidemill.internal.multipart;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a part's header block says.
 *
 * @param name the {@code name} parameter of {@code Content-Disposition: form-data}
 * @param filename {@code filename*} decoded, else {@code filename}; present for a file part
 * @param contentType the part's {@code Content-Type}, or its RFC 7578 default: {@code text/plain}
 *     for a field, {@code application/octet-stream} for a file
 * @param fields every header field as sent (name case kept, value without surrounding
 *     whitespace), in order
 */
public record PartHead(String name, Optional<String> filename, String contentType, List<Map.Entry<String, String>> fields)
        implements dev.tidemill.Multipart.Head {

    /** Copies the field list. */
    public PartHead {
        fields = List.copyOf(fields);
    }

    /** @return whether this part is a file (it has a file name, even an empty one) */
    public boolean isFile() {
        return filename.isPresent();
    }

    /** @return the header fields by lower-case name, in order (made anew at each call) */
    @Override
    public Map<String, List<String>> headers() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : fields) {
            out.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>(1)).add(h.getValue());
        }
        out.replaceAll((k, v) -> List.copyOf(v));
        return java.util.Collections.unmodifiableMap(out);
    }
}
