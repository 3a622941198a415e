package dev.tidemill.internal.multipart;

/** The {@code boundary} parameter of a {@code multipart/form-data} content type, checked against RFC 2046 section 5.1.1. */
final class Boundary {
    private Boundary() {}

    private static final String BCHARS_NOSPACE = "'()+_,-./:=?";

    /**
     * @param contentType the request's {@code Content-Type}, a {@code multipart/...} type
     * @return the boundary: 1-70 bchars, not ending in a space
     * @throws dev.tidemill.ProblemException 400 when it is missing or invalid
     */
    static String of(String contentType) {
        int semi = contentType.indexOf(';');
        HeaderParams params;
        try {
            params = semi < 0 ? HeaderParams.NONE : HeaderParams.parse(contentType, semi);
        } catch (HeaderParams.Malformed e) {
            throw Refusal.malformed("Content-Type parameters: " + e.getMessage());
        }
        String b = params.get("boundary");
        if (b == null) throw Refusal.malformed("Content-Type multipart/form-data without a boundary parameter");
        if (!valid(b)) {
            throw Refusal.malformed("invalid boundary parameter (RFC 2046: 1-70 characters of"
                    + " [0-9A-Za-z'()+_,-./:=? ], not ending in a space)");
        }
        return b;
    }

    /** @param b a boundary @return whether it is 1-70 bchars and does not end in a space */
    static boolean valid(String b) {
        if (b.isEmpty() || b.length() > 70 || b.charAt(b.length() - 1) == ' ') return false;
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == ' '
                    || BCHARS_NOSPACE.indexOf(c) >= 0;
            if (!ok) return false;
        }
        return true;
    }

    /** @param boundary a valid boundary @return the delimiter the body is scanned for: CRLF, {@code --}, the boundary */
    static byte[] delimiter(String boundary) {
        byte[] d = new byte[4 + boundary.length()];
        d[0] = '\r';
        d[1] = '\n';
        d[2] = '-';
        d[3] = '-';
        for (int i = 0; i < boundary.length(); i++) d[4 + i] = (byte) boundary.charAt(i); // bchars are ASCII
        return d;
    }

    /** @param contentType a {@code Content-Type} value @return whether its media type is {@code multipart/form-data} */
    static boolean isFormData(String contentType) {
        int semi = contentType.indexOf(';');
        int end = semi < 0 ? contentType.length() : semi;
        int from = 0;
        while (from < end && contentType.charAt(from) <= ' ') from++; // as trim() does
        while (end > from && contentType.charAt(end - 1) <= ' ') end--;
        String type = "multipart/form-data";
        if (end - from != type.length()) return false;
        for (int i = 0; i < type.length(); i++) {
            char c = contentType.charAt(from + i);
            if (c >= 'A' && c <= 'Z') c += 'a' - 'A'; // ASCII only: regionMatches(true, ...) takes a dotless ı for i
            if (c != type.charAt(i)) return false;
        }
        return true;
    }
}
