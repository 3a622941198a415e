package dev.tidemill.internal.assets;

import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.PathDecoder;

/**
 * The one place a request path becomes a catalogue key, and a file or resource name becomes one.
 * Assets are looked up by key in the catalogue built at start, never by resolving the request's
 * path against the file system, so no request can name a file the scan did not accept; these rules
 * refuse hostile paths explicitly anyway, so that what is refused does not depend on what happens
 * to exist.
 *
 * <p>A key is {@code /}-separated segments, each non-empty, none {@code .} or {@code ..}, none
 * holding {@code \}, NUL or another control character, and none starting with {@code .} unless
 * dotfiles are enabled. The request path is split on its raw {@code /} and each segment is
 * percent-decoded exactly once, so {@code %2F} cannot make a separator ({@code ..%2Fx} is one
 * segment that decodes to a {@code /} and is refused), and {@code %252e} is the literal text
 * {@code %2e}, a name no scan produced.
 */
final class AssetPath {
    private AssetPath() {}

    /**
     * @param rawPath the request path as sent (percent-encoded)
     * @param skipSlashes how many raw {@code /} of the path belong to the mount (the catch-all
     *     starts after them)
     * @param dotfiles whether segments starting with {@code .} are served
     * @return the key, or null when the path is refused or names no asset shape
     */
    static String requestKey(String rawPath, int skipSlashes, boolean dotfiles) {
        int at = 0;
        for (int i = 0; i < skipSlashes; i++) {
            at = rawPath.indexOf('/', at) + 1;
            if (at == 0) return null; // the mount itself, without a name
        }
        if (at >= rawPath.length()) return null;
        StringBuilder key = new StringBuilder(rawPath.length() - at);
        while (true) {
            int end = rawPath.indexOf('/', at);
            if (end < 0) end = rawPath.length();
            String segment;
            try {
                segment = PathDecoder.decode(rawPath.substring(at, end));
            } catch (MalformedEncodingException e) {
                return null; // the gate answers these with 400 before routing; here for safety only
            }
            if (!validSegment(segment, dotfiles)) return null;
            key.append(segment);
            if (end == rawPath.length()) return key.toString();
            key.append('/');
            at = end + 1;
        }
    }

    /**
     * @param name a relative name, {@code /}-separated (a file under the root, a resource)
     * @param dotfiles whether segments starting with {@code .} are allowed
     * @return whether it is a valid key
     */
    static boolean validName(String name, boolean dotfiles) {
        if (name.isEmpty()) return false;
        int at = 0;
        while (true) {
            int end = name.indexOf('/', at);
            if (end < 0) end = name.length();
            if (!validSegment(name.substring(at, end), dotfiles)) return false;
            if (end == name.length()) return true;
            at = end + 1;
        }
    }

    private static boolean validSegment(String s, boolean dotfiles) {
        if (s.isEmpty() || s.equals(".") || s.equals("..")) return false;
        if (s.charAt(0) == '.' && !dotfiles) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '/' || c == '\\') return false;
        }
        return true;
    }
}
