package dev.tidemill.controller;

/** The "no default" of the {@code defaultValue()} attributes: a text no parameter type parses. */
final class Unset {
    /** A NUL character, which no header, cookie or percent-decoded query default would be. */
    static final String TEXT = "\u0000";

    private Unset() {}
}
