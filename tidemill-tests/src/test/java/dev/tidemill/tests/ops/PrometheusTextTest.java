package dev.tidemill.tests.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The test parser refuses what Prometheus refuses, so a scrape it accepts is one Prometheus reads. */
class PrometheusTextTest {

    @Test
    void readsAWellFormedExposition() {
        PrometheusText m = PrometheusText.parse("""
                # HELP a_total requests\\nand more
                # TYPE a_total counter
                a_total{method="GET",route="/x/{id}",q="a\\"b\\\\c"} 3.0
                # TYPE h histogram
                h_bucket{le="0.1"} 1
                h_bucket{le="+Inf"} 2
                h_count 2
                h_sum 0.3
                g 1e-3 1700000000000
                """);
        assertThat(m.value("a_total", "route", "/x/{id}")).hasValue(3.0);
        assertThat(m.families().get("a_total").help()).isEqualTo("requests\nand more");
        assertThat(m.samples("a_total").get(0).labels().get("q")).isEqualTo("a\"b\\c");
        assertThat(m.families().get("h").samples()).hasSize(4);
        assertThat(m.value("g")).hasValue(0.001);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "a 1",                                          // no final line feed
        "1a 1\n",                                       // bad metric name
        "a{b=\"1\",b=\"2\"} 1\n",                       // a label twice
        "a{b=1} 1\n",                                   // unquoted label value
        "a{b=\"\\t\"} 1\n",                             // an escape the format does not have
        "a one\n",                                      // not a number
        "a 1\na 2\n",                                   // the same series twice
        "a 1\nb 1\na{x=\"1\"} 1\n",                     // a family split in two groups
        "a 1\n# TYPE a counter\n",                      // TYPE after the samples
        "# TYPE a counter\n# TYPE a counter\na 1\n",    // TYPE twice
        "# TYPE a counter\na -1\n",                     // a negative counter
        "# TYPE h histogram\nh_bucket 1\n",             // a bucket without le
        "# TYPE a wibble\na 1\n",                       // an unknown type
    })
    void refusesWhatPrometheusRefuses(String text) {
        assertThatThrownBy(() -> PrometheusText.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
