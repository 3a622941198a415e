package dev.tidemill.datastar;

/**
 * The namespace {@link PatchElements} parses its elements in, so an SVG or MathML fragment patched
 * on its own gets the right element types. The default is {@link #HTML}. Only the 1.0 protocol
 * has it: {@link Dialect#PRE_1_0} refuses any other (the beta.11 client always parses HTML).
 */
public enum Namespace {
    /** HTML (the default; no data line is sent). */
    HTML("html"),
    /** SVG. */
    SVG("svg"),
    /** MathML. */
    MATHML("mathml");

    final String wire;

    Namespace(String wire) {
        this.wire = wire;
    }
}
