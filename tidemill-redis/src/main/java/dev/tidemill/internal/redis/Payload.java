package dev.tidemill.internal.redis;

import tools.jackson.databind.json.JsonMapper;

/**
 * How a topic's payloads are stored in a stream entry's {@code value} field: a {@code String} as it
 * is (readable with redis-cli), any other type as JSON, with Jackson.
 */
final class Payload<T> {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String topic;
    private final Class<T> type;

    private Payload(String topic, Class<T> type) {
        this.topic = topic;
        this.type = type;
    }

    /**
     * @param topic the topic's name, for messages
     * @param type the payload type ({@code Topic.Builder#type}); null: String
     */
    static <T> Payload<T> of(String topic, Class<T> type) {
        return new Payload<>(topic, type);
    }

    private boolean text() {
        return type == null || type == String.class;
    }

    String encode(T value) {
        if (text()) {
            if (value instanceof String s) return s;
            throw new IllegalArgumentException("topic " + topic + " is stored in Redis and was built for String messages; declare "
                    + "the type of its messages with Topic.builder(...).type(" + value.getClass().getSimpleName() + ".class)");
        }
        return JSON.writeValueAsString(value);
    }

    @SuppressWarnings("unchecked")
    T decode(String stored) {
        if (stored == null) throw new IllegalArgumentException("no value field");
        return text() ? (T) stored : JSON.readValue(stored, type);
    }
}
