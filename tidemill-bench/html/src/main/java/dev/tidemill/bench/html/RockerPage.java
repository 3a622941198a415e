package dev.tidemill.bench.html;

import com.fizzed.rocker.runtime.ArrayOfByteArraysOutput;
import dev.tidemill.bench.common.PageData;
import java.util.List;

/**
 * Rocker 2.2: src/main/rocker/.../RockerPageTemplate.rocker.html, compiled to Java by
 * rocker-maven-plugin at build time ({@code optimize}: no reloading; static parts kept as
 * pre-encoded UTF-8 bytes), rendered into Rocker's {@link ArrayOfByteArraysOutput}. Its own
 * escaper is used: it writes {@code '} as {@code &#39;} where the reference keeps it; the data
 * holds none, so the bytes are the reference's.
 */
final class RockerPage implements Engine {
    @Override
    public byte[] render(String title, List<PageData.Row> rows) {
        return RockerPageTemplate.template(title, rows).render(ArrayOfByteArraysOutput.FACTORY).toByteArray();
    }
}
