package dev.tidemill;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * The id of a {@link Topic}'s message: two numbers, written {@code <major>-<minor>}, ordered first by
 * {@code major}, then by {@code minor}, exactly as a Redis stream orders its entry ids
 * ({@code <milliseconds>-<sequence>}). A topic's messages have increasing ids, so a client that saw
 * one can resume after it ({@code Last-Event-ID}). In process, the n-th message of a topic has the id
 * {@code <n>-0}, n from 1; on Redis the id is the stream entry's.
 *
 * @param major the first number (a Redis stream's milliseconds; in process, the message's number), 0 or more
 * @param minor the second number (a Redis stream's sequence; 0 in process), 0 or more
 */
public record MessageId(long major, long minor) implements Comparable<MessageId> {
    /** Before every message: resuming after it gives everything kept. */
    public static final MessageId ZERO = new MessageId(0, 0);

    /**
     * @throws IllegalArgumentException for a negative number
     */
    public MessageId {
        if (major < 0 || minor < 0) throw new IllegalArgumentException("message id parts must be 0 or more: " + major + "-" + minor);
    }

    /**
     * @param n a message number, 0 or more
     * @return {@code <n>-0}
     */
    public static MessageId of(long n) {
        return new MessageId(n, 0);
    }

    /**
     * Reads an id as a client sends it back: {@code <major>-<minor>}, or a single number {@code <n>}
     * (read as {@code <n>-0}, the form in-process ids had before they were pairs). Digits only, each
     * number below 2<sup>63</sup>; anything else is not an id.
     *
     * @param text the text, as received
     * @return the id, or empty when the text is not one
     */
    public static Optional<MessageId> parse(String text) {
        if (text == null) return Optional.empty();
        int dash = text.indexOf('-');
        long major = number(dash < 0 ? text : text.substring(0, dash));
        long minor = dash < 0 ? 0 : number(text.substring(dash + 1));
        return major < 0 || minor < 0 ? Optional.empty() : Optional.of(new MessageId(major, minor));
    }

    /** @return the number, or -1 when the text is not 1 to 19 digits below 2^63 */
    private static long number(String s) {
        if (s.isEmpty() || s.length() > 19) return -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }

    /**
     * @param other another id
     * @return whether this id comes after it
     */
    public boolean isAfter(MessageId other) {
        return compareTo(other) > 0;
    }

    @Override
    public int compareTo(MessageId o) {
        int c = Long.compare(major, o.major);
        return c != 0 ? c : Long.compare(minor, o.minor);
    }

    /**
     * For JSON: an id is its text, {@code "<major>-<minor>"}.
     *
     * @param text the text
     * @return the id
     * @throws IllegalArgumentException when the text is not one
     */
    @JsonCreator
    public static MessageId fromText(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("not a message id: " + text));
    }

    /** @return {@code <major>-<minor>}, in JSON too */
    @JsonValue
    @Override
    public String toString() {
        return major + "-" + minor;
    }
}
