package dev.tidemill.internal.assets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link AssetPath}: the request path after a two-slash mount ({@code /assets/...}) to a catalogue key. */
class AssetPathTest {

    @ParameterizedTest
    @CsvSource({
        "/assets/app.css, app.css",
        "/assets/css/app.css, css/app.css",
        "/assets/caf%C3%A9.css, café.css",
        "/assets/a%20b.css, a b.css",
        "/assets/%252e%252e, %2e%2e",
        "/assets/a;b.css, a;b.css",
    })
    void keys(String path, String key) {
        assertThat(AssetPath.requestKey(path, 2, false)).isEqualTo(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/assets", "/assets/", "/assets//x", "/assets/a/", "/assets/..", "/assets/.", "/assets/%2e%2e",
        "/assets/..%2fx", "/assets/a%2Fb", "/assets/a%5cb", "/assets/a\\b", "/assets/%00", "/assets/a%0d%0ab", "/assets/.env",
        "/assets/.git/config", "/assets/%2egit/config", "/assets/%zz", "/assets/%c0%ae", "/assets/a%7f"})
    void refused(String path) {
        assertThat(AssetPath.requestKey(path, 2, false)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/assets/.env", "/assets/.well-known/x"})
    void dotfilesWhenEnabled(String path) {
        assertThat(AssetPath.requestKey(path, 2, true)).isNotNull();
        assertThat(AssetPath.requestKey("/assets/..", 2, true)).isNull();
    }
}
