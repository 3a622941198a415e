package dev.tidemill.internal.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure parts of the handshake and of closing, against the RFC's own examples. */
class HandshakePartsTest {

    @Test
    void acceptIsTheRfcExample() {
        // RFC 6455 1.3: the sample nonce and the value the server must answer with.
        assertThat(WebSocketUpgrade.accept("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void tokensAreFoundInCommaListsInAnyCase() {
        assertThat(WebSocketUpgrade.hasToken(List.of("keep-alive, Upgrade"), "upgrade")).isTrue();
        assertThat(WebSocketUpgrade.hasToken(List.of("keep-alive", "UPGRADE"), "upgrade")).isTrue();
        assertThat(WebSocketUpgrade.hasToken(List.of("upgraded"), "upgrade")).isFalse();
        assertThat(WebSocketUpgrade.hasToken(List.of(), "upgrade")).isFalse();
    }

    @Test
    void theRoutesPreferenceDecidesTheSubprotocol() {
        assertThat(WebSocketUpgrade.subprotocol(List.of("v1.chat, v2.chat"), List.of("v2.chat", "v1.chat"))).isEqualTo("v2.chat");
        assertThat(WebSocketUpgrade.subprotocol(List.of("v1.chat", "v3"), List.of("v3"))).isEqualTo("v3");
        assertThat(WebSocketUpgrade.subprotocol(List.of("mqtt"), List.of("v2.chat"))).isNull();
        assertThat(WebSocketUpgrade.subprotocol(List.of(), List.of("v2.chat"))).isNull();
        assertThat(WebSocketUpgrade.subprotocol(List.of("v2.chat"), List.of())).isNull();
    }

    @Test
    void onlyTheCodesRfc6455AllowsOnTheWireAreAccepted() {
        for (int code : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999}) {
            assertThat(FrameDecoder.validOnTheWire(code)).as("%d", code).isTrue();
        }
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535}) {
            assertThat(FrameDecoder.validOnTheWire(code)).as("%d", code).isFalse();
        }
    }

    @Test
    void reasonsAreCutTo123BytesOnACharacterBoundary() {
        assertThat(CloseReason.fit("short")).isEqualTo("short");
        String euros = "€".repeat(60); // 180 bytes
        String cut = CloseReason.fit(euros);
        assertThat(cut.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(123);
        assertThat(cut).isEqualTo("€".repeat(41));
        assertThat(CloseReason.fit("a".repeat(200))).hasSize(123);
    }
}
