package dev.tidemill;

import java.time.Duration;

/**
 * One connection to an {@link InMemoryServer}: bytes in as a client would send them, the bytes the
 * server writes out, in order. Methods may be called from any thread; one reader at a time.
 */
public interface InMemoryConnection extends AutoCloseable {

    /**
     * Delivers bytes to the server as one read of a socket. While the server has paused reading
     * (back-pressure, as it turns auto-read off on a socket) they wait, in order, until it reads again.
     *
     * @param bytes the bytes, copied
     * @return false if the connection is closed or its output shut down: nothing was delivered
     */
    boolean write(byte[] bytes);

    /**
     * Reads what the server wrote, waiting up to {@code wait} for a first byte.
     *
     * @param buf where to put the bytes
     * @param off the first index to fill
     * @param len how many bytes at most
     * @param wait how long to wait for a byte if none is there yet
     * @return the number of bytes read (at least one), 0 if none came within {@code wait} and the
     *     connection is still open, -1 if the server closed the connection and everything it wrote
     *     has been read
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    int read(byte[] buf, int off, int len, Duration wait) throws InterruptedException;

    /**
     * Ends the client's side of the stream, as a TCP client's FIN: the server treats it as the
     * client leaving (replies already produced are still written, work in flight is abandoned).
     */
    void shutdownOutput();

    /** @return false once either side closed the connection */
    boolean isOpen();

    /** Closes the connection, as a client that disconnects; idempotent. */
    @Override
    void close();
}
