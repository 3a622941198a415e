package dev.tidemill;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A file part of a {@code multipart/form-data} body bound by {@link Request#body(Class)} into a
 * component of type {@code Upload} (or {@code List<Upload>}). Its content is held in memory up to
 * {@link Limits#uploadMemoryBytes()} (default 64 KiB); a larger one is in a temporary file in
 * {@code java.io.tmpdir}, readable by its owner only and deleted when the request ends however it
 * ends (reply written, connection lost, timeout, handler failed): keep it with {@link #moveTo(Path)}.
 *
 * <p>The file name is the client's text: the framework never uses it as a path. Use
 * {@link #safeFilename()} to name a file after it.
 */
public interface Upload {

    /** @return the form field's name */
    String name();

    /** @return the file name as sent ({@code filename*} preferred), possibly empty or hostile */
    Optional<String> filename();

    /** @return {@link #safeName(String)} of the file name, {@code upload} when there is none */
    default String safeFilename() {
        return safeName(filename().orElse(""));
    }

    /** @return the part's {@code Content-Type}, {@code application/octet-stream} when absent */
    String contentType();

    /** @return the content's length in bytes */
    long size();

    /** @return a new stream over the content, from its start; throws {@link IllegalStateException} after {@link #moveTo} */
    InputStream open();

    /** @return the whole content; for a large upload prefer {@link #open()} or {@link #moveTo} */
    byte[] bytes();

    /**
     * Moves the content to a file, created or replaced (a rename when the temporary file is on the
     * same file system). Afterwards {@link #open()} and {@link #bytes()} throw.
     *
     * @param target where to keep the content
     * @return target
     */
    Path moveTo(Path target);

    /**
     * A file name safe to create in a directory of your choosing: only the last segment after
     * {@code /} or {@code \} (browsers of old sent full paths), without control characters, NUL,
     * {@code :*?"<>|}, leading dots or spaces and trailing dots or spaces, a Windows device name
     * ({@code CON}, {@code NUL}, {@code COM1}...) prefixed with {@code _}, cut to 255 UTF-16 units
     * keeping the extension; {@code upload} when nothing is left. It does not make names unique.
     *
     * @param filename a client's file name
     * @return a name without path separators, never empty
     */
    static String safeName(String filename) {
        String s = filename;
        int cut = Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\'));
        if (cut >= 0) s = s.substring(cut + 1);
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().filter(c -> c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && ":*?\"<>|".indexOf(c) < 0)
                .forEach(b::appendCodePoint);
        int start = 0;
        while (start < b.length() && (b.charAt(start) == '.' || b.charAt(start) == ' ')) start++;
        int end = b.length();
        while (end > start && (b.charAt(end - 1) == '.' || b.charAt(end - 1) == ' ')) end--;
        s = b.substring(start, end);
        if (s.isEmpty()) return "upload";
        int dot = s.indexOf('.');
        if (isWindowsDevice((dot < 0 ? s : s.substring(0, dot)).trim().toLowerCase(Locale.ROOT))) s = "_" + s;
        if (s.length() > 255) {
            int ext = s.lastIndexOf('.');
            String tail = ext > 0 && s.length() - ext <= 16 ? s.substring(ext) : "";
            s = s.substring(0, 255 - tail.length()) + tail;
            // never end on half a surrogate pair
            if (Character.isHighSurrogate(s.charAt(254 - tail.length()))) {
                s = s.substring(0, 254 - tail.length()) + tail;
            }
        }
        return s;
    }

    /** Names Windows reserves for devices, whatever the extension: {@code nul.txt} opens the device. */
    private static boolean isWindowsDevice(String stem) {
        return switch (stem) {
            case "con", "prn", "aux", "nul" -> true;
            default -> stem.length() == 4 && (stem.startsWith("com") || stem.startsWith("lpt"))
                    && stem.charAt(3) >= '1' && stem.charAt(3) <= '9';
        };
    }
}
