package dev.tidemill.datastar;

/**
 * Which Datastar wire protocol a {@link Datastar} speaks: the event names, data-line keys and
 * attribute syntax differ, the API does not. Pick the one your page's browser client speaks.
 */
public enum Dialect {
    /**
     * The Datastar 1.0 protocol (the default): events {@code datastar-patch-elements} and
     * {@code datastar-patch-signals}; attributes {@code data-on:click}. Verified byte for byte
     * against the official server SDK {@code @starfederation/datastar-sdk 1.0.0}.
     */
    V1_0,
    /**
     * The protocol of the {@code @starfederation/datastar 1.0.0-beta.11} client, the newest on the
     * npm registry: events {@code datastar-merge-fragments}, {@code datastar-remove-fragments},
     * {@code datastar-merge-signals}, {@code datastar-remove-signals},
     * {@code datastar-execute-script}; attributes {@code data-on-click}. 1.0 modes are mapped onto
     * its merge modes; what has no equivalent is refused (docs/datastar.md has the table).
     */
    PRE_1_0
}
