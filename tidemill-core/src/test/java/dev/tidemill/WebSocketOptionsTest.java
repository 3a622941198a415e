package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** WebSocketOptions: its ranges, its validation, and docs/websocket.md's table of its defaults. */
class WebSocketOptionsTest {

    @Test
    void theDocumentedDefaultsAreTheBuildersOnes() throws Exception {
        WebSocketOptions d = WebSocketOptions.DEFAULTS;
        String doc = Files.readString(Path.of("..", "docs", "websocket.md"));
        assertThat(doc).contains("| origins | same origin |");
        assertThat(d.origins()).isEmpty();
        assertThat(doc).contains("| subprotocols | none |");
        assertThat(d.subprotocols()).isEmpty();
        assertThat(doc).contains("| compression | on |");
        assertThat(d.compression()).isTrue();
        assertThat(doc).contains("| maxMessageBytes | 16 MiB | 1 B-1 GiB |");
        assertThat(d.maxMessageBytes()).isEqualTo(16L << 20);
        assertThat(doc).contains("| maxFrameBytes | 16 MiB | 125 B-1 GiB |");
        assertThat(d.maxFrameBytes()).isEqualTo(16L << 20);
        assertThat(doc).contains("| maxOutboundBytes | 4 MiB | 1 B-1 GiB |");
        assertThat(d.maxOutboundBytes()).isEqualTo(4L << 20);
        assertThat(doc).contains("| overflow | FAIL |");
        assertThat(d.overflow()).isEqualTo(WebSocketOptions.Overflow.FAIL);
        assertThat(doc).contains("| pingInterval | 30 s | 1 ms-24 h |");
        assertThat(d.pingInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(doc).contains("| idleTimeout | 75 s | 1 ms-24 h |");
        assertThat(d.idleTimeout()).isEqualTo(Duration.ofSeconds(75));
        assertThat(doc).contains("| closeTimeout | 5 s | 1 ms-24 h |");
        assertThat(d.closeTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void rangesAreCheckedAtTheirBoundaries() {
        WebSocketOptions.Builder b = WebSocketOptions.builder();
        assertThat(b.maxMessageBytes(1).build().maxMessageBytes()).isEqualTo(1);
        assertThat(b.maxMessageBytes(1L << 30).build().maxMessageBytes()).isEqualTo(1L << 30);
        assertThatThrownBy(() -> WebSocketOptions.builder().maxMessageBytes(0).build()).hasMessageContaining("maxMessageBytes");
        assertThatThrownBy(() -> WebSocketOptions.builder().maxMessageBytes((1L << 30) + 1).build()).hasMessageContaining("maxMessageBytes");
        assertThat(WebSocketOptions.builder().maxFrameBytes(125).build().maxFrameBytes()).isEqualTo(125);
        assertThatThrownBy(() -> WebSocketOptions.builder().maxFrameBytes(124).build()).hasMessageContaining("maxFrameBytes");
        assertThatThrownBy(() -> WebSocketOptions.builder().maxOutboundBytes(0).build()).hasMessageContaining("maxOutboundBytes");
        assertThat(WebSocketOptions.builder().pingInterval(Duration.ofMillis(1)).build().pingInterval()).isEqualTo(Duration.ofMillis(1));
        assertThatThrownBy(() -> WebSocketOptions.builder().pingInterval(Duration.ZERO).build()).hasMessageContaining("pingInterval");
        assertThatThrownBy(() -> WebSocketOptions.builder().idleTimeout(Duration.ofHours(25)).build()).hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> WebSocketOptions.builder().closeTimeout(null).build()).hasMessageContaining("closeTimeout");
    }

    @Test
    void originsAndSubprotocolsAreValidated() {
        assertThat(WebSocketOptions.builder().allowOrigins("https://app.example", "http://localhost:8080").build().origins())
                .containsExactly("https://app.example", "http://localhost:8080");
        assertThat(WebSocketOptions.builder().anyOrigin().build().origins()).isEqualTo(List.of("*"));
        assertThatThrownBy(() -> WebSocketOptions.builder().allowOrigins("app.example").build()).hasMessageContaining("origins");
        assertThatThrownBy(() -> WebSocketOptions.builder().allowOrigins("https://a.example/path").build()).hasMessageContaining("origins");
        assertThatThrownBy(() -> WebSocketOptions.builder().allowOrigins("*", "https://a.example").build()).hasMessageContaining("origins");
        assertThat(WebSocketOptions.builder().subprotocols("v2.chat", "mqtt").build().subprotocols()).containsExactly("v2.chat", "mqtt");
        assertThatThrownBy(() -> WebSocketOptions.builder().subprotocols("a b").build()).hasMessageContaining("subprotocols");
        assertThatThrownBy(() -> WebSocketOptions.builder().subprotocols("").build()).hasMessageContaining("subprotocols");
    }
}
