package dev.tidemill.internal.exchange;

import io.netty.buffer.ByteBuf;

/**
 * How {@code dev.tidemill.html} renders into a response buffer without a Netty type in its public
 * API (the exported packages expose no third-party type): the html package installs its renderer
 * here when its first piece is made, and {@link Replies} calls it.
 */
public final class Markup {
    /** Renders an {@code Html} piece into a buffer. */
    public interface Renderer {
        /**
         * @param html a {@code dev.tidemill.html.Html}
         * @param out where its UTF-8 bytes are appended
         */
        void render(Object html, ByteBuf out);
    }

    private static volatile Renderer renderer;

    private Markup() {}

    /** @param r the html package's renderer; called once, from its static initializer */
    public static void install(Renderer r) {
        renderer = r;
    }

    static void render(Object html, ByteBuf out) {
        renderer.render(html, out); // installed: an Html instance exists, so its class was initialised
    }
}
