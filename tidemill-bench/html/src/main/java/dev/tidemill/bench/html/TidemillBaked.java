package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.TidemillPages;
import java.util.List;

/**
 * Tidemill's baked templates ({@link TidemillPages#baked}, the same code the server benchmark's
 * Tidemill targets serve): the page and its row baked once, a render fills them, then
 * {@link dev.tidemill.html.Html#toBytes()}.
 */
final class TidemillBaked implements Engine {
    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        return TidemillPages.baked(title, rows).toBytes();
    }
}
