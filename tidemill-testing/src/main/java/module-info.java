/**
 * Tidemill's test client ({@code dev.tidemill.testing}): what an application's tests use to talk
 * to a server over real sockets. It reads only the core's exported API.
 */
module dev.tidemill.testing {
    exports dev.tidemill.testing;

    requires transitive dev.tidemill;
    requires transitive tools.jackson.databind; // TestResponse.jsonTree() returns a JsonNode
    /** H2Wire: Netty's HPACK encoder and decoder for raw HTTP/2 frames; no Netty type in its API. */
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.codec.http2;
    requires static org.junit.jupiter.api; // @TidemillTest and TidemillExtension, for JUnit users
}
