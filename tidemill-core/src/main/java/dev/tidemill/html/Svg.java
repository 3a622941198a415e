package dev.tidemill.html;

/**
 * The common SVG elements, for use inside {@link Tags#svg}: {@code import static
 * dev.tidemill.html.Svg.*} next to {@code Tags.*}. Tag names keep SVG's case
 * ({@code linearGradient}); {@code <text>} and {@code <image>} are {@link #svgText} and
 * {@link #svgImage}, so they do not clash with {@link Tags#text} and HTML's {@code img}.
 */
public final class Svg {
    private Svg() {}

    /** @param content attributes and children @return SVG {@code <g>} */
    public static Element g(Object... content) { return Element.of("g", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <path>} */
    public static Element path(Object... content) { return Element.of("path", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <circle>} */
    public static Element circle(Object... content) { return Element.of("circle", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <rect>} */
    public static Element rect(Object... content) { return Element.of("rect", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <line>} */
    public static Element line(Object... content) { return Element.of("line", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <polyline>} */
    public static Element polyline(Object... content) { return Element.of("polyline", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <polygon>} */
    public static Element polygon(Object... content) { return Element.of("polygon", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <ellipse>} */
    public static Element ellipse(Object... content) { return Element.of("ellipse", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <defs>} */
    public static Element defs(Object... content) { return Element.of("defs", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <use>} */
    public static Element use(Object... content) { return Element.of("use", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <symbol>} */
    public static Element symbol(Object... content) { return Element.of("symbol", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <linearGradient>} */
    public static Element linearGradient(Object... content) { return Element.of("linearGradient", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <radialGradient>} */
    public static Element radialGradient(Object... content) { return Element.of("radialGradient", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <stop>} */
    public static Element stop(Object... content) { return Element.of("stop", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <clipPath>} */
    public static Element clipPath(Object... content) { return Element.of("clipPath", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <mask>} */
    public static Element mask(Object... content) { return Element.of("mask", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <pattern>} */
    public static Element pattern(Object... content) { return Element.of("pattern", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <text>} */
    public static Element svgText(Object... content) { return Element.of("text", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <tspan>} */
    public static Element tspan(Object... content) { return Element.of("tspan", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <marker>} */
    public static Element marker(Object... content) { return Element.of("marker", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <filter>} */
    public static Element filter(Object... content) { return Element.of("filter", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <foreignObject>} */
    public static Element foreignObject(Object... content) { return Element.of("foreignObject", Element.NORMAL, content); }
    /** @param content attributes and children @return SVG {@code <image>} */
    public static Element svgImage(Object... content) { return Element.of("image", Element.NORMAL, content); }
}
