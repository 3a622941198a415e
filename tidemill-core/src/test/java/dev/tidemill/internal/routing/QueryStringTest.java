package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueryStringTest {

    @Test
    void nullOrEmptyGivesAnEmptyMap() {
        assertThat(QueryString.parse(null)).isEmpty();
        assertThat(QueryString.parse("")).isEmpty();
        assertThat(QueryString.parseForm(null, StandardCharsets.UTF_8)).isEmpty();
        assertThat(QueryString.parseForm(new byte[0], StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void pairsRepeatedKeysAndEmptyValues() {
        Map<String, List<String>> q = QueryString.parse("a=1&b=&c&a=2&a=3&&=x&d=e=f&");
        assertThat(q).containsOnlyKeys("a", "b", "c", "", "d");
        assertThat(q.keySet()).containsExactly("a", "b", "c", "", "d");
        assertThat(q.get("a")).containsExactly("1", "2", "3");
        assertThat(q.get("b")).containsExactly("");
        assertThat(q.get("c")).containsExactly("");
        assertThat(q.get("")).containsExactly("x");
        assertThat(q.get("d")).containsExactly("e=f");
    }

    @Test
    void plusIsSpaceAndPercentDecodesUtf8InKeysAndValues() {
        Map<String, List<String>> q = QueryString.parse("q=a+b%2Bc&caf%C3%A9=%E2%82%AC&x%3Dy=1%262&sp=%20+");
        assertThat(q.get("q")).containsExactly("a b+c");
        assertThat(q.get("café")).containsExactly("€");
        assertThat(q.get("x=y")).containsExactly("1&2");
        assertThat(q.get("sp")).containsExactly("  ");
    }

    @Test
    void theMapAndListsAreReadOnly() {
        Map<String, List<String>> q = QueryString.parse("a=1");
        assertThatThrownBy(() -> q.put("b", List.of())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> q.get("a").add("2")).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=%", "a=%4", "a=%zz", "%=1", "a=%C3", "a=%FF", "ok=1&b=%E2%82"})
    void invalidEncodingIsRefused(String query) {
        assertThatThrownBy(() -> QueryString.parse(query))
                .isInstanceOf(MalformedEncodingException.class)
                .hasMessage("invalid percent-encoding in query");
    }

    @Test
    void thousandPairsAreFineOneMoreIsRefused() {
        assertThat(QueryString.parse(pairs(dev.tidemill.Limits.DEFAULTS.maxQueryPairs())).get("k")).hasSize(1000);
        assertThatThrownBy(() -> QueryString.parse(pairs(dev.tidemill.Limits.DEFAULTS.maxQueryPairs() + 1)))
                .isInstanceOf(TooManyParametersException.class)
                .hasMessageContaining("1000");
        byte[] form = pairs(dev.tidemill.Limits.DEFAULTS.maxQueryPairs() + 1).getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> QueryString.parseForm(form, StandardCharsets.UTF_8))
                .isInstanceOf(TooManyParametersException.class);
    }

    @Test
    void emptyPairsDoNotCountTowardsTheCap() {
        String q = pairs(dev.tidemill.Limits.DEFAULTS.maxQueryPairs()) + "&&&&";
        assertThat(QueryString.parse(q).get("k")).hasSize(1000);
    }

    @Test
    void formBodyDecodesInItsCharset() {
        byte[] utf8 = "name=Jos%C3%A9+Smith&city=S%C3%A3o+Paulo".getBytes(StandardCharsets.US_ASCII);
        Map<String, List<String>> f = QueryString.parseForm(utf8, StandardCharsets.UTF_8);
        assertThat(f.get("name")).containsExactly("José Smith");
        assertThat(f.get("city")).containsExactly("São Paulo");
        byte[] latin1 = "name=Jos%E9".getBytes(StandardCharsets.US_ASCII);
        assertThat(QueryString.parseForm(latin1, StandardCharsets.ISO_8859_1).get("name")).containsExactly("José");
    }

    @Test
    void formBodyRawNonAsciiBytesAreDecodedInTheCharset() {
        byte[] body = "v=café".getBytes(StandardCharsets.UTF_8);
        assertThat(QueryString.parseForm(body, StandardCharsets.UTF_8).get("v")).containsExactly("café");
        assertThatThrownBy(() -> QueryString.parseForm(new byte[] {'v', '=', (byte) 0xFF}, StandardCharsets.UTF_8))
                .isInstanceOf(MalformedEncodingException.class)
                .hasMessage("invalid percent-encoding in form body");
    }

    private static String pairs(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(i == 0 ? "" : "&").append("k=").append(i);
        return b.toString();
    }
}
