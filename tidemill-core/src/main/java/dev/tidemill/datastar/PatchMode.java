package dev.tidemill.datastar;

/**
 * How {@link PatchElements} puts its elements into the page (the 1.0 protocol's modes). The
 * default is {@link #OUTER}. In {@link Dialect#PRE_1_0} each maps onto the beta.11 client's merge
 * mode named in its description.
 */
public enum PatchMode {
    /** Morph the target element, keeping its state (the default). Pre-1.0: {@code morph}, the default there too. */
    OUTER("outer", "morph"),
    /**
     * Morph the target's children into the elements. Pre-1.0: {@code inner}, which replaces the
     * target's inner HTML with each top-level element in turn (no morph): send one element.
     */
    INNER("inner", "inner"),
    /** Replace the target element, resetting its state. Pre-1.0: {@code outer}. */
    REPLACE("replace", "outer"),
    /** Insert at the start of the target. Pre-1.0: {@code prepend}. */
    PREPEND("prepend", "prepend"),
    /** Insert at the end of the target. Pre-1.0: {@code append}. */
    APPEND("append", "append"),
    /** Insert before the target. Pre-1.0: {@code before}. */
    BEFORE("before", "before"),
    /** Insert after the target. Pre-1.0: {@code after}. */
    AFTER("after", "after"),
    /**
     * Remove the target (by selector, or by the elements' ids). Pre-1.0: a
     * {@code datastar-remove-fragments} event, which needs a selector.
     */
    REMOVE("remove", null);

    final String v1;
    /** The beta.11 merge mode; null for {@link #REMOVE}, which is an event of its own there. */
    final String pre1;

    PatchMode(String v1, String pre1) {
        this.v1 = v1;
        this.pre1 = pre1;
    }
}
