package dev.tidemill.bench.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.bench.common.PageData;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every engine the benchmark times renders the reference page byte for byte, and the check refuses one that does not. */
class EnginesRenderTheReferenceTest {
    static Stream<String> engines() {
        return Engine.ALL.keySet().stream();
    }

    @ParameterizedTest
    @MethodSource("engines")
    void rendersTheReferenceBytes(String name) {
        byte[] page = Engine.named(name).render(PageData.TITLE, PageData.rows());
        RenderBenchmark.check(name, page); // the benchmark's own @Setup check: names the first differing byte
        assertThat(new String(page, StandardCharsets.UTF_8)).isEqualTo(PageData.reference());
    }

    @ParameterizedTest
    @MethodSource("engines")
    void rendersTheSameBytesAgain(String name) {
        Engine e = Engine.named(name);
        byte[] first = e.render(PageData.TITLE, PageData.rows());
        assertThat(e.render(PageData.TITLE, PageData.rows())).isEqualTo(first);
    }

    @Test
    void theDataNeedsEscapingSoTheCheckMeansSomething() {
        long tricky = PageData.rows().stream().filter(r -> !PageData.escape(r.name()).equals(r.name())).count();
        assertThat(tricky).isEqualTo(7);
        assertThat(PageData.reference()).contains("&quot;5 &gt; 3 &amp; 2 &lt; 4&quot;", "data-name=\"Eve &lt;script&gt;");
    }

    @Test
    void theSetupCheckRefusesAPageThatDiffers() {
        byte[] page = PageData.reference().getBytes(StandardCharsets.UTF_8);
        byte[] quoteLeftAsIs = new String(page, StandardCharsets.UTF_8).replaceFirst("&quot;", "\"").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RenderBenchmark.check("wrong", quoteLeftAsIs))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("first difference at byte");
        assertThatThrownBy(() -> RenderBenchmark.check("short", Arrays.copyOf(page, page.length - 1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theBenchmarkParameterListsEveryEngine() throws NoSuchFieldException {
        String[] params = RenderBenchmark.class.getField("engine").getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertThat(params).containsExactlyElementsOf(Engine.ALL.keySet());
    }
}
