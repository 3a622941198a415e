package dev.tidemill;

/**
 * Request and connection limits. Every default is defined here and only here; the defaults table in
 * the README is checked against this record by a test.
 *
 * @param concurrencyPerLoop requests admitted per worker loop, queued + in flight; past it on every
 *     loop: 503 problem with {@code Retry-After: 1}. In IO and VIRTUAL modes the same total
 *     ({@code concurrencyPerLoop x workerLoops}) bounds the server. Default 1,024.
 * @param maxConnections open connections; at the limit the server stops accepting until one
 *     closes. Default 10,000.
 * @param maxRequestLineBytes bytes in the request line; longer: 414. Default 8 KiB (8,192).
 * @param maxHeaderBytes bytes in the header block; larger: 431. Default 16 KiB (16,384).
 * @param maxHeaderCount header fields per request; more: 431. Default 100.
 * @param maxBodyBytes request body bytes after transfer decoding; larger: 413, and a declared
 *     {@code Content-Length} over it is refused before any of the body is read. Default 16 MiB.
 * @param maxPipelined requests per connection read but not yet answered; at the cap the server
 *     stops reading from that connection until responses catch up. Default 16.
 * @param maxDrainBytes body bytes the server reads and discards after refusing a request (404, 405,
 *     422, ...) to keep the keep-alive connection usable; a longer body closes the connection
 *     instead. Default 256 KiB.
 */
public record Limits(
        int concurrencyPerLoop,
        int maxConnections,
        int maxRequestLineBytes,
        int maxHeaderBytes,
        int maxHeaderCount,
        long maxBodyBytes,
        int maxPipelined,
        long maxDrainBytes) {

    /** The defaults, as documented on each component. */
    public static final Limits DEFAULTS =
            new Limits(1_024, 10_000, 8 * 1024, 16 * 1024, 100, 16L * 1024 * 1024, 16, 256 * 1024);

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one. */
    public Limits {
        positive("concurrencyPerLoop", concurrencyPerLoop);
        positive("maxConnections", maxConnections);
        positive("maxRequestLineBytes", maxRequestLineBytes);
        positive("maxHeaderBytes", maxHeaderBytes);
        positive("maxHeaderCount", maxHeaderCount);
        if (maxBodyBytes < 0) throw new IllegalArgumentException("maxBodyBytes must be >= 0");
        positive("maxPipelined", maxPipelined);
        if (maxDrainBytes < 0) throw new IllegalArgumentException("maxDrainBytes must be >= 0");
    }

    private static void positive(String name, long value) {
        if (value <= 0) throw new IllegalArgumentException(name + " must be > 0");
    }

    /** @return a copy with another body limit, in bytes */
    public Limits withMaxBodyBytes(long bytes) {
        return new Limits(concurrencyPerLoop, maxConnections, maxRequestLineBytes, maxHeaderBytes,
                maxHeaderCount, bytes, maxPipelined, maxDrainBytes);
    }
}
