package dev.tidemill.bench.peers.undertow;

import dev.tidemill.bench.common.EndpointCheck;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Starts the peer in-process and checks every scenario endpoint against the reference bytes. */
class MainTest {

    @Test
    void servesEveryScenarioEndpointWithTheReferenceBytes() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Main.main(new String[] {Integer.toString(port), "2"}); // returns once listening
        EndpointCheck.verify(port);
    }
}
