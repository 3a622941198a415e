package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.answered;

import dev.tidemill.Limits;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

/**
 * Category 11, JSON abuse against a validated body ({@code POST /json}): deep nesting, huge
 * numbers, long strings, duplicate keys and malformed documents each get a bounded, clear 4xx
 * (400 for a document that does not parse or does not bind to the type, naming the problem; 422
 * for one that binds but fails validation; 413 past the body limit), never a stack overflow or a
 * 500, and the connection stays usable.
 */
class JsonAbuseTest extends CaseTable {
    static final String CAT = "11 JSON abuse";

    private static String json(String body) {
        int length = body.getBytes(StandardCharsets.ISO_8859_1).length;
        return "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n" + body;
    }

    /** The body as UTF-8 bytes, carried one char per byte. */
    private static String utf8(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    static Stream<HostileCase> cases() {
        return Stream.of(
                answered(CAT, "arrays nested 100,000 deep", "CVE-2022-42004 (jackson-databind deep nesting); Jackson maxNestingDepth",
                        json("[".repeat(100_000) + "]".repeat(100_000)), 400),
                answered(CAT, "objects nested 10,000 deep", "Jackson maxNestingDepth", json("{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000)), 400),
                answered(CAT, "unclosed nesting 100,000 deep", "Jackson maxNestingDepth", json("[".repeat(100_000)), 400),
                answered(CAT, "a 5,000-digit integer", "number-parsing DoS; Jackson maxNumberLength",
                        json("{\"name\":\"Ada\",\"age\":" + "9".repeat(5_000) + "}"), 400),
                answered(CAT, "a 5,000-digit fraction", "Jackson maxNumberLength",
                        json("{\"name\":\"Ada\",\"age\":0." + "1".repeat(5_000) + "}"), 400),
                answered(CAT, "an exponent of 1e999999999", "BigDecimal scale DoS", json("{\"name\":\"Ada\",\"age\":1e999999999}"), 400),
                answered(CAT, "an int field given 2^31", "RFC 8259 6; strict scalars", json("{\"name\":\"Ada\",\"age\":2147483648}"), 400),
                answered(CAT, "duplicate keys", "RFC 8259 4 (names SHOULD be unique); Jackson STRICT_DUPLICATE_DETECTION",
                        json("{\"name\":\"Ada\",\"name\":\"Eve\",\"age\":1}"), 400),
                answered(CAT, "NaN", "RFC 8259 6", json("{\"name\":\"Ada\",\"age\":NaN}"), 400),
                answered(CAT, "Infinity", "RFC 8259 6", json("{\"name\":\"Ada\",\"age\":Infinity}"), 400),
                answered(CAT, "trailing garbage after the document", "RFC 8259 2", json("{\"name\":\"Ada\",\"age\":1} x"), 400),
                answered(CAT, "two documents", "RFC 8259 2", json("{\"name\":\"Ada\",\"age\":1}{\"name\":\"Eve\",\"age\":2}"), 400),
                answered(CAT, "truncated document", "RFC 8259 2", json("{\"name\":\"Ada\",\"age\""), 400),
                answered(CAT, "single-quoted strings", "RFC 8259 7", json("{'name':'Ada','age':1}"), 400),
                answered(CAT, "comments", "RFC 8259 2", json("{/*x*/\"name\":\"Ada\",\"age\":1}"), 400),
                answered(CAT, "invalid UTF-8 in a string", "RFC 8259 8.1", json("{\"name\":\"\u00ff\u00fe\",\"age\":1}"), 400),
                answered(CAT, "unpaired surrogate escape", "RFC 8259 8.2 (accepted by Jackson as text)",
                        json("{\"name\":\"\\ud800\",\"age\":1}"), 200),
                answered(CAT, "raw control byte in a string", "RFC 8259 7", json("{\"name\":\"a\u0001b\",\"age\":1}"), 400),
                answered(CAT, "empty body", "RFC 8259 2", json(""), 400),
                answered(CAT, "null document", "bound to a record: required", json("null"), 400),
                answered(CAT, "an array where an object is expected", "strict binding", json("[1,2]"), 400),
                answered(CAT, "string where an int is expected", "strict scalars: no coercion", json("{\"name\":\"Ada\",\"age\":\"42\"}"), 400),
                answered(CAT, "null for an int", "FAIL_ON_NULL_FOR_PRIMITIVES", json("{\"name\":\"Ada\",\"age\":null}"), 400),
                answered(CAT, "a 1 MiB name (under every limit) still validates", "bounded by the body limit, not by Jackson",
                        json("{\"name\":\"" + "a".repeat(1 << 20) + "\",\"age\":1}"), 200),
                answered(CAT, "100,000 keys", "hash-flooding class; bounded by the body limit",
                        json("{" + java.util.stream.IntStream.range(0, 100_000).mapToObj(i -> "\"k" + i + "\":0")
                                .collect(java.util.stream.Collectors.joining(",")) + ",\"name\":\"Ada\",\"age\":1}"), 200),
                answered(CAT, "non-ASCII name in UTF-8", "RFC 8259 8.1", json(utf8("{\"name\":\"Ada \u00e9\u4e2d\",\"age\":1}")), 200),
                answered(CAT, "validation failure", "Bean Validation: 422 with every field", json("{\"name\":\"\",\"age\":200}"), 422),
                Cases.refused(CAT, "a declared JSON body over the limit, none sent", "Limits.maxBodyBytes",
                        "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                                + (Limits.DEFAULTS.maxBodyBytes() + 1) + "\r\n\r\n", 413));
    }
}
