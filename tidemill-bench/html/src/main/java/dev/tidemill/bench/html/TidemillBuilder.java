package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.TidemillPages;
import java.util.List;

/**
 * Tidemill's builder: the page built per render from the rows ({@link TidemillPages#builder}, the
 * same code the server benchmark's {@code tidemill-builder} target serves), then
 * {@link dev.tidemill.html.Html#toBytes()}.
 */
final class TidemillBuilder implements Engine {
    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        return TidemillPages.builder(title, rows).toBytes();
    }
}
