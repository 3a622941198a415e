package dev.tidemill.testing;

import java.util.Arrays;

/**
 * The client's side of HTTP/2 flow control on one stream of an {@link H2Wire} (RFC 9113 6.9), for
 * {@link H2Exchange} and {@link H2StreamPipe}: what the server lets it send (the connection's
 * window, with what the server granted during the handshake, and the stream's, from the server's
 * SETTINGS), and the window it gives back for each DATA frame it reads. Not thread-safe.
 */
final class H2Flow {
    /** RFC 9113 6.5.2: the window every stream and connection starts with. */
    static final int DEFAULT_WINDOW = 65_535;

    private final H2Wire wire;
    private final int stream;
    private long connectionWindow = DEFAULT_WINDOW;
    private long streamWindow;
    private final int maxFrame;

    /** @param wire a wire whose handshake is done; @param stream the stream this flow is of */
    H2Flow(H2Wire wire, int stream) {
        this.wire = wire;
        this.stream = stream;
        this.streamWindow = wire.serverSettings().getOrDefault(H2Wire.INITIAL_WINDOW_SIZE, (long) DEFAULT_WINDOW);
        this.maxFrame = (int) (long) wire.serverSettings().getOrDefault(H2Wire.MAX_FRAME_SIZE, 16_384L);
        for (H2Wire.Frame f : wire.seen()) granted(f); // what the server granted the connection during the handshake
    }

    /** @param f a frame read: a WINDOW_UPDATE for the connection or this stream adds to its window */
    void granted(H2Wire.Frame f) {
        if (f.type() != H2Wire.WINDOW_UPDATE) return;
        long increment = f.errorCode() & 0x7fffffffL; // the payload's 31-bit increment
        if (f.streamId() == 0) connectionWindow += increment;
        else if (f.streamId() == stream) streamWindow += increment;
    }

    /** @return how many of {@code wanted} bytes may go in the next DATA frame now (0: wait for window) */
    int sendable(int wanted) {
        return (int) Math.max(0, Math.min(Math.min(connectionWindow, streamWindow), Math.min(maxFrame, wanted)));
    }

    /** @param n bytes just sent in DATA */
    void sent(int n) {
        connectionWindow -= n;
        streamWindow -= n;
    }

    /**
     * Gives back the window a DATA frame of this stream used (the connection's always, the
     * stream's unless the frame ended it).
     *
     * @param f the DATA frame
     * @return its data, padding removed
     */
    byte[] received(H2Wire.Frame f) {
        byte[] p = f.payload();
        if (p.length > 0) { // best effort: a server that is closing has no use for it, and the next read says so
            wire.tryRaw(H2Wire.frameBytes(H2Wire.WINDOW_UPDATE, 0, 0, H2Wire.intBytes(p.length)));
            if (!f.has(H2Wire.END_STREAM)) wire.tryRaw(H2Wire.frameBytes(H2Wire.WINDOW_UPDATE, 0, stream, H2Wire.intBytes(p.length)));
            wire.flush();
        }
        int start = f.has(H2Wire.PADDED) ? 1 : 0;
        int end = p.length - (f.has(H2Wire.PADDED) ? p[0] & 0xff : 0);
        return end > start ? Arrays.copyOfRange(p, start, end) : new byte[0];
    }
}
