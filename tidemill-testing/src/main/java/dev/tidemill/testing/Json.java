package dev.tidemill.testing;

import tools.jackson.databind.json.JsonMapper;

/** The Jackson 3 mapper the test client uses to write request bodies and read response bodies. */
final class Json {
    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}
}
