/**
 * Tidemill's test client ({@code dev.tidemill.testing}): what an application's tests use to talk
 * to a server over real sockets. It reads only the core's exported API.
 */
module dev.tidemill.testing {
    exports dev.tidemill.testing;

    requires transitive dev.tidemill;
    requires transitive tools.jackson.databind; // TestResponse.jsonTree() returns a JsonNode
    requires static org.junit.jupiter.api; // @TidemillTest and TidemillExtension, for JUnit users
}
