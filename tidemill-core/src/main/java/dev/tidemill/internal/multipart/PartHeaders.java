package dev.tidemill.internal.multipart;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A part's header block (RFC 7578 section 4 on RFC 2046 and RFC 5322 header syntax) to a
 * {@link PartHead}. Strict where a lenient parse is how two parsers come to disagree on a field's
 * name or a file's name: no bare CR or LF (the parser refuses those while it collects the block),
 * no obs-fold, no control bytes, token header names, exactly one {@code Content-Disposition} of
 * type {@code form-data} with a {@code name}, no control characters in a name or file name after
 * decoding. The block is UTF-8: browsers send names and file names as raw UTF-8 (HTML's form
 * submission algorithm), not in RFC 2047 encoded-words.
 */
final class PartHeaders {
    private PartHeaders() {}

    /**
     * @param block the header lines, each ending in CRLF, without the empty line that ends the block
     * @param length bytes of {@code block} used
     * @return the part's head
     * @throws dev.tidemill.ProblemException 400 naming the broken rule
     */
    static PartHead parse(byte[] block, int length) {
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            int c = block[i] & 0xff;
            if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
                throw Refusal.malformed("a control character (0x" + Integer.toHexString(c) + ") in a part's headers");
            }
            ascii &= c < 0x80;
        }
        String text;
        if (ascii) {
            text = new String(block, 0, length, StandardCharsets.ISO_8859_1); // ASCII is UTF-8: no decoder and its char buffer
        } else try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(block, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw Refusal.malformed("a part's headers are not UTF-8");
        }
        // Indexes into the text, not a String per line, name and trimmed value: a String is made
        // for each name (a constant for the two every part has) and value, nothing else.
        List<Map.Entry<String, String>> headers = new ArrayList<>(4);
        String disposition = null;
        String contentType = null;
        int from = 0;
        while (from < text.length()) {
            int eol = text.indexOf("\r\n", from); // the parser ends every line in CRLF
            int lineStart = from;
            from = eol + 2;
            if (eol == lineStart) continue;
            if (text.charAt(lineStart) == ' ' || text.charAt(lineStart) == '\t') {
                throw Refusal.malformed("a folded header line (obs-fold) in a part's headers");
            }
            int colon = text.indexOf(':', lineStart);
            if (colon < 0 || colon > eol) throw Refusal.malformed("a part header line without a colon");
            if (!HeaderParams.isToken(text, lineStart, colon)) throw Refusal.malformed("a part header with an invalid name");
            int valueStart = colon + 1;
            int valueEnd = eol;
            while (valueStart < valueEnd && Character.isWhitespace(text.charAt(valueStart))) valueStart++; // as strip() does
            while (valueEnd > valueStart && Character.isWhitespace(text.charAt(valueEnd - 1))) valueEnd--;
            String value = text.substring(valueStart, valueEnd);
            if (named(text, lineStart, colon, CONTENT_DISPOSITION)) {
                if (disposition != null) throw Refusal.malformed("a part with two Content-Disposition headers");
                disposition = value;
                headers.add(Map.entry(text.startsWith(CONTENT_DISPOSITION, lineStart) ? CONTENT_DISPOSITION : text.substring(lineStart, colon), value));
            } else if (named(text, lineStart, colon, CONTENT_TYPE)) {
                if (contentType != null) throw Refusal.malformed("a part with two Content-Type headers");
                contentType = value;
                headers.add(Map.entry(text.startsWith(CONTENT_TYPE, lineStart) ? CONTENT_TYPE : text.substring(lineStart, colon), value));
            } else {
                headers.add(Map.entry(text.substring(lineStart, colon), value));
            }
        }
        if (disposition == null) throw Refusal.malformed("a part without Content-Disposition");
        int semi = disposition.indexOf(';');
        int typeStart = 0;
        int typeEnd = semi < 0 ? disposition.length() : semi;
        while (typeStart < typeEnd && Character.isWhitespace(disposition.charAt(typeStart))) typeStart++;
        while (typeEnd > typeStart && Character.isWhitespace(disposition.charAt(typeEnd - 1))) typeEnd--;
        if (!named(disposition, typeStart, typeEnd, "form-data")) {
            throw Refusal.malformed("a part whose Content-Disposition is not form-data");
        }
        HeaderParams params;
        try {
            params = semi < 0 ? HeaderParams.NONE : HeaderParams.parse(disposition, semi);
        } catch (HeaderParams.Malformed e) {
            throw Refusal.malformed("Content-Disposition: " + e.getMessage());
        }
        String name = params.get("name");
        if (name == null) throw Refusal.malformed("a part without a name (Content-Disposition: form-data; name=...)");
        checkText("name", name);
        Optional<String> filename = Optional.ofNullable(params.get("filename"));
        String extended = params.get("filename*");
        if (extended != null) filename = Optional.of(extValue(extended));
        filename.ifPresent(f -> checkText("filename", f));
        String ct = contentType != null && !contentType.isEmpty() ? contentType
                : filename.isPresent() ? "application/octet-stream" : "text/plain";
        return new PartHead(name, filename, ct, headers);
    }

    private static final String CONTENT_DISPOSITION = "Content-Disposition";
    private static final String CONTENT_TYPE = "Content-Type";

    /** @return whether {@code text[from, to)} is {@code name} in any case, as {@code equalsIgnoreCase} compares */
    private static boolean named(String text, int from, int to, String name) {
        return to - from == name.length() && text.regionMatches(true, from, name, 0, name.length());
    }

    /** CR, LF and NUL in a name end up in logs, headers and paths; no browser sends them raw (HTML percent-encodes). */
    private static void checkText(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw Refusal.malformed("a control character (0x" + Integer.toHexString(c) + ") in a part's " + what);
            }
        }
    }

    /**
     * RFC 8187 section 3.2 (RFC 5987's ext-value): {@code charset'[language]'pct-encoded}, charset
     * UTF-8 or ISO-8859-1 (the two the RFC requires; others are refused rather than guessed).
     */
    static String extValue(String v) {
        int q1 = v.indexOf('\'');
        int q2 = q1 < 0 ? -1 : v.indexOf('\'', q1 + 1);
        if (q2 < 0) throw Refusal.malformed("filename* is not charset'language'value (RFC 8187)");
        String charset = v.substring(0, q1);
        Charset cs;
        if (charset.equalsIgnoreCase("UTF-8")) cs = StandardCharsets.UTF_8;
        else if (charset.equalsIgnoreCase("ISO-8859-1")) cs = StandardCharsets.ISO_8859_1;
        else throw Refusal.malformed("filename* in a charset other than UTF-8 or ISO-8859-1");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = q2 + 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '%') {
                int hi = i + 2 < v.length() ? hex(v.charAt(i + 1)) : -1;
                int lo = hi < 0 ? -1 : hex(v.charAt(i + 2));
                if (lo < 0) throw Refusal.malformed("filename* has a malformed percent-encoding");
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x7f && (Character.isLetterOrDigit(c) || "!#$&+-.^_`|~".indexOf(c) >= 0)) {
                bytes.write(c);
            } else {
                throw Refusal.malformed("filename* has a character that must be percent-encoded");
            }
        }
        try {
            return cs.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw Refusal.malformed("filename* is not valid " + cs.name());
        }
    }

    /** ASCII only: {@code Character.digit} would take an Arabic-Indic digit as a hex digit. */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
}
