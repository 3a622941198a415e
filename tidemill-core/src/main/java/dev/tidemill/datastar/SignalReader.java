package dev.tidemill.datastar;

import dev.tidemill.JsonCodec;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.Request;
import dev.tidemill.internal.codec.JacksonCodec;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads a request's Datastar signals: where they are, how large and deep, then the app's JSON
 * codec binds them.
 */
final class SignalReader {
    private static final byte[] EMPTY_OBJECT = {'{', '}'};
    private static final String TITLE = "Invalid Datastar signals";
    /** Tidemill's default codec, for a {@link Request} that is not the server's own (a test's stand-in). */
    static final JsonCodec DEFAULT_CODEC = JacksonCodec.DEFAULT;

    private SignalReader() {}

    static <T> T read(Request request, Class<T> type, SignalLimits limits) {
        byte[] json = raw(request, limits);
        check(json, limits);
        T value;
        try {
            value = request.json().read(json, type);
        } catch (JsonCodec.MalformedJsonException e) {
            throw problem(e.getMessage());
        }
        if (value == null) throw problem("the signals are JSON null");
        return value;
    }

    /**
     * GET, HEAD and DELETE carry the signals in the {@code datastar} query parameter (what the
     * 1.0 SDKs read); a DELETE without it may carry them in its body, which is where the beta.11
     * client puts them for every method but GET ({@code backend/actions/sse.js} line 94). Every
     * other method carries them in the body. No signals at all reads as {@code {}}.
     */
    private static byte[] raw(Request request, SignalLimits limits) {
        String method = request.method();
        boolean inQuery = method.equals("GET") || method.equals("HEAD") || method.equals("DELETE");
        if (inQuery) {
            Optional<String> q = request.query(Datastar.QUERY_PARAMETER);
            if (q.isPresent()) {
                String s = q.get();
                if (s.length() > limits.maxBytes()) throw tooLarge(s.length(), limits); // each char is at least a byte
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                if (b.length > limits.maxBytes()) throw tooLarge(b.length, limits);
                return b;
            }
            if (!method.equals("DELETE")) return EMPTY_OBJECT;
        }
        byte[] body = request.body();
        if (body.length > limits.maxBytes()) throw tooLarge(body.length, limits);
        return isBlank(body) ? EMPTY_OBJECT : body;
    }

    private static boolean isBlank(byte[] b) {
        for (byte x : b) if (!whitespace(x)) return false;
        return true;
    }

    private static boolean whitespace(byte x) {
        return x == ' ' || x == '\t' || x == '\n' || x == '\r';
    }

    /**
     * The outer value is an object, and objects and arrays nest at most {@code maxDepth} deep.
     * Brackets inside strings do not count; anything else malformed is left to the codec.
     */
    static void check(byte[] json, SignalLimits limits) {
        int i = 0;
        while (i < json.length && whitespace(json[i])) i++;
        if (i == json.length || json[i] != '{') throw problem("the signals are a JSON object, not " + describe(json, i));
        int depth = 0;
        boolean inString = false;
        for (; i < json.length; i++) {
            byte c = json[i];
            if (inString) {
                if (c == '\\') i++;
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > limits.maxDepth()) {
                    throw problem("the signals nest deeper than " + limits.maxDepth() + " levels (SignalLimits.maxDepth)");
                }
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
    }

    private static String describe(byte[] json, int i) {
        if (i == json.length) return "nothing";
        return switch (json[i]) {
            case '[' -> "an array";
            case '"' -> "a string";
            case 'n' -> "null";
            case 't', 'f' -> "a boolean";
            default -> json[i] == '-' || json[i] >= '0' && json[i] <= '9' ? "a number" : "JSON";
        };
    }

    private static ProblemException problem(String detail) {
        return new ProblemException(Problem.of(400, TITLE, detail));
    }

    private static ProblemException tooLarge(long size, SignalLimits limits) {
        return new ProblemException(Problem.of(413, "Content Too Large",
                "the Datastar signals are " + size + " bytes; the limit is " + limits.maxBytes() + " (SignalLimits.maxBytes)"));
    }
}
