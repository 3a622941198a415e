package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The hand-written baseline: {@link PageData#render()} (a StringBuilder and {@link PageData#escape},
 * the renderer the server benchmark's peers serve), encoded to UTF-8. It renders
 * {@link PageData#rows()} and {@link PageData#TITLE} itself, which are what every engine is given.
 */
final class StringBuilderPage implements Engine {
    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        return PageData.render().getBytes(StandardCharsets.UTF_8);
    }
}
