package dev.tidemill.bench.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PageDataTest {

    @Test
    void theReferencePageIsAbout16KbWithFiftyRowsOneInSevenNeedingEscaping() {
        byte[] page = Scenario.utf8(PageData.reference());
        assertThat(page.length).isBetween(14 * 1024, 18 * 1024);
        assertThat(PageData.rows()).hasSize(50);
        long tricky = PageData.rows().stream().filter(r -> !PageData.escape(r.name()).equals(r.name())).count();
        assertThat(tricky).isEqualTo(7);
        assertThat(PageData.reference()).doesNotContain("<script>").contains("&lt;script&gt;alert(&quot;7&quot;)");
        assertThat(PageData.rows()).noneMatch(r -> (r.name() + r.note() + r.email()).contains("'"));
    }

    @Test
    void escapeHandlesTheFourCharacters() {
        assertThat(PageData.escape("a<b>&\"c")).isEqualTo("a&lt;b&gt;&amp;&quot;c");
        assertThat(PageData.escape("plain")).isSameAs("plain");
    }

    @Test
    void theValidationRule() {
        assertThat(Scenario.valid("Ada", 42)).isTrue();
        assertThat(Scenario.valid("", 42)).isFalse();
        assertThat(Scenario.valid("Ada", 151)).isFalse();
        assertThat(Scenario.valid("Ada", -1)).isFalse();
        assertThat(Scenario.valid(null, 1)).isFalse();
    }
}
