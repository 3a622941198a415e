package dev.tidemill.bench.common;

import java.nio.charset.StandardCharsets;

/**
 * The endpoints every benchmark target serves, with the exact bytes it must answer. The runner
 * checks each target against these before timing it and refuses a target that differs.
 */
public final class Scenario {
    private Scenario() {}

    /** {@code GET /plaintext}: 200, {@code text/plain}. */
    public static final String PLAINTEXT_PATH = "/plaintext";
    /** The plaintext body. */
    public static final String PLAINTEXT_BODY = "Hello, World!";

    /** {@code GET /json}: 200, {@code application/json}, serialised per request. */
    public static final String JSON_PATH = "/json";
    /** The JSON body, exactly (no spaces). */
    public static final String JSON_BODY = "{\"message\":\"Hello, World!\"}";

    /** {@code GET /user/{id}} with an integer id: 200, {@code application/json}. */
    public static final String USER_PATH_PREFIX = "/user/";

    /**
     * @param id the path parameter
     * @return the body for {@code GET /user/{id}}, exactly: {@code {"id":42,"name":"user-42"}}
     */
    public static String userBody(long id) {
        return "{\"id\":" + id + ",\"name\":\"user-" + id + "\"}";
    }

    /** {@code POST /validate} with a JSON body; 200 echoing it when valid, 422 otherwise. */
    public static final String VALIDATE_PATH = "/validate";
    /** The valid request body the benchmark sends. */
    public static final String VALIDATE_REQUEST = "{\"name\":\"Ada\",\"age\":42}";
    /** The answer to the valid request, exactly. */
    public static final String VALIDATE_RESPONSE = "{\"name\":\"Ada\",\"age\":42}";
    /** An invalid request (empty name, age out of range): every target must answer 422. */
    public static final String VALIDATE_INVALID_REQUEST = "{\"name\":\"\",\"age\":200}";

    /**
     * The validation rule, the same everywhere.
     *
     * @param name the name field (null if absent)
     * @param age the age field
     * @return whether the body is valid: name non-empty (after trimming), age 0-150
     */
    public static boolean valid(String name, long age) {
        return name != null && !name.isBlank() && age >= 0 && age <= 150;
    }

    /** {@code GET /page}: 200, {@code text/html; charset=utf-8}, {@link PageData#reference()}. */
    public static final String PAGE_PATH = "/page";

    /** @param s text @return its UTF-8 bytes */
    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
