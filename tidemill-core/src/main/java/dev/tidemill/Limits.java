package dev.tidemill;

/**
 * Request and connection limits. Every default is defined here and only here (in {@link Builder}'s
 * starting values), every range once (in this record's range constants, which the constructor checks
 * and the environment reader uses); the defaults tables in the README and docs/security.md are
 * checked against this record by a test. Build one with {@link #builder()} or {@link #toBuilder()}.
 *
 * @param concurrencyPerLoop requests admitted per worker loop, queued + in flight; past it on every
 *     loop: 503 problem with {@code Retry-After: 1}. In IO and VIRTUAL modes the same total
 *     ({@code concurrencyPerLoop x workerLoops}) bounds the server. 1-16,777,216 (the worker queue
 *     is sized from it); default 1,024.
 * @param maxConnections open connections; at the limit the server stops accepting until one
 *     closes. 1-16,777,216; default 10,000.
 * @param maxRequestLineBytes bytes in the request line; longer: 414. Over HTTP/2, the line the same
 *     request would have over HTTP/1.1 ({@code :method SP :path SP HTTP/1.1}), so a target is refused
 *     over both protocols alike. 1 B-1 MiB; default 8 KiB (8,192).
 * @param maxHeaderBytes bytes in the header block; larger: 431. Over HTTP/2, the header list size
 *     as HPACK counts it (name, value and 32 bytes per field, pseudo-header fields included),
 *     announced as SETTINGS_MAX_HEADER_LIST_SIZE. 1 B-1 MiB; default 16 KiB (16,384).
 * @param maxHeaderCount header fields per request; more: 431. 1-10,000; default 100.
 * @param maxBodyBytes request body bytes after transfer decoding; larger: 413, and a declared
 *     {@code Content-Length} over it is refused before any of the body is read. 0 B-1 GiB (a body
 *     is held in memory); default 16 MiB.
 * @param maxPipelined requests per connection read but not yet answered; at the cap the server
 *     stops reading from that connection until responses catch up. 1-65,536; default 16.
 * @param maxDrainBytes body bytes the server reads and discards after refusing a request (404, 405,
 *     422, ...) to keep the keep-alive connection usable; a longer body closes the connection
 *     instead. 0 B-1 GiB; default 256 KiB.
 * @param maxQueryPairs {@code name=value} pairs in one query string or URL-encoded form body, counted
 *     before decoding (each costs a map entry and a list, so a small request could otherwise
 *     allocate a lot); more: 400 for a query, 413 for a form. 1-100,000; default 1,000.
 * @param maxLeadingEmptyLines empty lines (CRLF) accepted before a request line (RFC 9112 2.2 asks
 *     a server to ignore at least one); more: 400 and the connection closed. 1-1,024; default 8.
 * @param maxContentCodings codings stacked in a request body's {@code Content-Encoding}
 *     ({@code gzip, br} is two); more: 415. 1-8; default 2.
 * @param maxJsonNestingDepth nesting of arrays and objects in a JSON body; deeper: 400. 1-1,000;
 *     default 500.
 * @param maxJsonNumberLength digits in one JSON number (long numbers cost quadratic time to parse);
 *     longer: 400. 1-10,000; default 1,000.
 * @param maxJsonStringLength characters in one JSON string value; longer: 400. A whole JSON document
 *     is bounded by {@link #maxBodyBytes()}. 1-1,073,741,824; default 16,777,216 (16 Mi).
 * @param acceptBacklog connections the kernel queues for the server before they are accepted
 *     ({@code SO_BACKLOG}; the kernel caps it at {@code net.core.somaxconn}); past it new
 *     connections wait or are refused by the kernel (a dropped SYN is retried by the client after
 *     about a second). 1-65,535; default 4,096, Linux's own default for {@code somaxconn} since
 *     5.4. With 1,024, the bench's plaintext-1024 scenario (1,024 connections opened at once) had
 *     a p99 of 1.51 and 1.46 s on tidemill-io in two runs, and 22 ms with 4,096
 *     ({@code ./tidemill bench --quick --targets tidemill-io,vertx-core,baseline --scenarios
 *     plaintext-1024}, 2026-12-01).
 * @param writeBufferLowWaterMark outbound bytes a connection's buffer must drain below before an
 *     unwritable connection is writable again (reading resumes, streams continue). 1 B-16 MiB, at
 *     most {@link #writeBufferHighWaterMark()}; default 32 KiB.
 * @param writeBufferHighWaterMark outbound bytes queued on a connection above which it is
 *     unwritable: the server stops reading from it, streaming responses pause, and the
 *     {@link Timeouts#writeStall() write-stall} watch starts. 1 B-16 MiB; default 64 KiB.
 * @param decoderChunkBytes largest piece of a request body the HTTP decoder hands on at once; a
 *     larger read is split, nothing is refused. 1 B-16 MiB; default 64 KiB.
 * @param bodyHighWaterBytes bytes of a streamed request body ({@link Route#streamedBody()}) held
 *     between the socket and the handler; above it the server stops reading that connection (TCP
 *     pushes back on the client) until the handler has taken some. 1 B-64 MiB; default 1 MiB.
 * @param maxParts parts in one {@code multipart/form-data} body; more: 413. 1-100,000; default 1,000.
 * @param maxPartHeaderBytes bytes in the header block of one multipart part; larger: 413.
 *     1 B-1 MiB; default 8 KiB (8,192).
 * @param maxFieldBytes bytes of one multipart text field (a part without a file name), held in
 *     memory to be bound; larger: 413. 0 B-64 MiB; default 64 KiB (65,536).
 * @param maxFileBytes bytes of one multipart file part (decoded); larger: 413. The route's
 *     {@link #maxBodyBytes()} bounds the whole body as well. 0 B-1 TiB; default 1 GiB, so by
 *     default the body limit decides.
 * @param uploadMemoryBytes bytes of one file part kept in memory; a larger part is spooled to a
 *     temporary file (in {@code java.io.tmpdir}), deleted when the request ends however it ends.
 *     0 B-64 MiB; default 64 KiB (65,536).
 * @param maxConcurrentStreams HTTP/2 streams a client may have open on one connection
 *     (SETTINGS_MAX_CONCURRENT_STREAMS); past it: RST_STREAM REFUSED_STREAM. 1-10,000; default 100.
 * @param streamWindowBytes HTTP/2 flow-control window of each stream (SETTINGS_INITIAL_WINDOW_SIZE):
 *     request body bytes a client may send that the handler has not taken; the connection's window
 *     is this times {@link #maxConcurrentStreams()}, so a slow reader closes its own stream's
 *     window only. 64 KiB-16 MiB; default 1 MiB.
 * @param maxFrameBytes largest HTTP/2 frame payload a client may send (SETTINGS_MAX_FRAME_SIZE);
 *     larger: connection error FRAME_SIZE_ERROR. 16 KiB-16 MiB (RFC 9113 6.5.2); default 16 KiB.
 * @param maxQueuedControlFrames HTTP/2 control frames (SETTINGS and PING acknowledgements,
 *     RST_STREAM) queued for a client that does not read them; past it the connection closes
 *     (SETTINGS, PING and reset floods). 1-1,000,000; default 10,000.
 * @param maxResetsPerWindow HTTP/2 RST_STREAM frames a client may send, or make the server send,
 *     in 30 s; past it GOAWAY ENHANCE_YOUR_CALM (Rapid Reset, CVE-2023-44487; MadeYouReset,
 *     CVE-2025-8671). 1-100,000; default 200.
 */
public record Limits(
        int concurrencyPerLoop,
        int maxConnections,
        int maxRequestLineBytes,
        int maxHeaderBytes,
        int maxHeaderCount,
        long maxBodyBytes,
        int maxPipelined,
        long maxDrainBytes,
        int maxQueryPairs,
        int maxLeadingEmptyLines,
        int maxContentCodings,
        int maxJsonNestingDepth,
        int maxJsonNumberLength,
        int maxJsonStringLength,
        int acceptBacklog,
        int writeBufferLowWaterMark,
        int writeBufferHighWaterMark,
        int decoderChunkBytes,
        int bodyHighWaterBytes,
        int maxParts,
        int maxPartHeaderBytes,
        int maxFieldBytes,
        long maxFileBytes,
        int uploadMemoryBytes,
        int maxConcurrentStreams,
        int streamWindowBytes,
        int maxFrameBytes,
        int maxQueuedControlFrames,
        int maxResetsPerWindow) {

    // The ranges, one per component. Declared before DEFAULTS: the constructor reads them.
    static final Range CONCURRENCY_PER_LOOP = Range.count("concurrencyPerLoop", 1, 1 << 24);
    static final Range MAX_CONNECTIONS = Range.count("maxConnections", 1, 1 << 24);
    static final Range MAX_REQUEST_LINE_BYTES = Range.bytes("maxRequestLineBytes", 1, 1 << 20);
    static final Range MAX_HEADER_BYTES = Range.bytes("maxHeaderBytes", 1, 1 << 20);
    static final Range MAX_HEADER_COUNT = Range.count("maxHeaderCount", 1, 10_000);
    static final Range MAX_BODY_BYTES = Range.bytes("maxBodyBytes", 0, 1L << 30);
    static final Range MAX_PIPELINED = Range.count("maxPipelined", 1, 1 << 16);
    static final Range MAX_DRAIN_BYTES = Range.bytes("maxDrainBytes", 0, 1L << 30);
    static final Range MAX_QUERY_PAIRS = Range.count("maxQueryPairs", 1, 100_000);
    static final Range MAX_LEADING_EMPTY_LINES = Range.count("maxLeadingEmptyLines", 1, 1_024);
    static final Range MAX_CONTENT_CODINGS = Range.count("maxContentCodings", 1, 8);
    static final Range MAX_JSON_NESTING_DEPTH = Range.count("maxJsonNestingDepth", 1, 1_000);
    static final Range MAX_JSON_NUMBER_LENGTH = Range.count("maxJsonNumberLength", 1, 10_000);
    static final Range MAX_JSON_STRING_LENGTH = Range.count("maxJsonStringLength", 1, 1 << 30);
    static final Range ACCEPT_BACKLOG = Range.count("acceptBacklog", 1, 65_535);
    static final Range WRITE_BUFFER_LOW_WATER_MARK = Range.bytes("writeBufferLowWaterMark", 1, 16 << 20);
    static final Range WRITE_BUFFER_HIGH_WATER_MARK = Range.bytes("writeBufferHighWaterMark", 1, 16 << 20);
    static final Range DECODER_CHUNK_BYTES = Range.bytes("decoderChunkBytes", 1, 16 << 20);
    static final Range BODY_HIGH_WATER_BYTES = Range.bytes("bodyHighWaterBytes", 1, 64 << 20);
    static final Range MAX_PARTS = Range.count("maxParts", 1, 100_000);
    static final Range MAX_PART_HEADER_BYTES = Range.bytes("maxPartHeaderBytes", 1, 1 << 20);
    static final Range MAX_FIELD_BYTES = Range.bytes("maxFieldBytes", 0, 64 << 20);
    static final Range MAX_FILE_BYTES = Range.bytes("maxFileBytes", 0, 1L << 40);
    static final Range UPLOAD_MEMORY_BYTES = Range.bytes("uploadMemoryBytes", 0, 64 << 20);
    static final Range MAX_CONCURRENT_STREAMS = Range.count("maxConcurrentStreams", 1, 10_000);
    static final Range STREAM_WINDOW_BYTES = Range.bytes("streamWindowBytes", 64 << 10, 16 << 20);
    static final Range MAX_FRAME_BYTES = Range.bytes("maxFrameBytes", 16 << 10, (16 << 20) - 1);
    static final Range MAX_QUEUED_CONTROL_FRAMES = Range.count("maxQueuedControlFrames", 1, 1_000_000);
    static final Range MAX_RESETS_PER_WINDOW = Range.count("maxResetsPerWindow", 1, 100_000);

    /** The defaults, as documented on each component. */
    public static final Limits DEFAULTS = new Builder().build();

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one, never its value. */
    public Limits {
        CONCURRENCY_PER_LOOP.check(concurrencyPerLoop);
        MAX_CONNECTIONS.check(maxConnections);
        MAX_REQUEST_LINE_BYTES.check(maxRequestLineBytes);
        MAX_HEADER_BYTES.check(maxHeaderBytes);
        MAX_HEADER_COUNT.check(maxHeaderCount);
        MAX_BODY_BYTES.check(maxBodyBytes);
        MAX_PIPELINED.check(maxPipelined);
        MAX_DRAIN_BYTES.check(maxDrainBytes);
        MAX_QUERY_PAIRS.check(maxQueryPairs);
        MAX_LEADING_EMPTY_LINES.check(maxLeadingEmptyLines);
        MAX_CONTENT_CODINGS.check(maxContentCodings);
        MAX_JSON_NESTING_DEPTH.check(maxJsonNestingDepth);
        MAX_JSON_NUMBER_LENGTH.check(maxJsonNumberLength);
        MAX_JSON_STRING_LENGTH.check(maxJsonStringLength);
        ACCEPT_BACKLOG.check(acceptBacklog);
        WRITE_BUFFER_LOW_WATER_MARK.check(writeBufferLowWaterMark);
        WRITE_BUFFER_HIGH_WATER_MARK.check(writeBufferHighWaterMark);
        if (writeBufferLowWaterMark > writeBufferHighWaterMark) {
            throw new IllegalArgumentException("writeBufferLowWaterMark must be <= writeBufferHighWaterMark");
        }
        DECODER_CHUNK_BYTES.check(decoderChunkBytes);
        BODY_HIGH_WATER_BYTES.check(bodyHighWaterBytes);
        MAX_PARTS.check(maxParts);
        MAX_PART_HEADER_BYTES.check(maxPartHeaderBytes);
        MAX_FIELD_BYTES.check(maxFieldBytes);
        MAX_FILE_BYTES.check(maxFileBytes);
        UPLOAD_MEMORY_BYTES.check(uploadMemoryBytes);
        MAX_CONCURRENT_STREAMS.check(maxConcurrentStreams);
        STREAM_WINDOW_BYTES.check(streamWindowBytes);
        MAX_FRAME_BYTES.check(maxFrameBytes);
        MAX_QUEUED_CONTROL_FRAMES.check(maxQueuedControlFrames);
        MAX_RESETS_PER_WINDOW.check(maxResetsPerWindow);
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from these limits */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return a copy with another body limit, in bytes */
    public Limits withMaxBodyBytes(long bytes) {
        return toBuilder().maxBodyBytes(bytes).build();
    }

    /**
     * Builder for {@link Limits}; starts from the defaults, which are defined here and nowhere else.
     * Values are checked by {@link #build()}.
     */
    public static final class Builder {
        private int concurrencyPerLoop = 1_024;
        private int maxConnections = 10_000;
        private int maxRequestLineBytes = 8 * 1024;
        private int maxHeaderBytes = 16 * 1024;
        private int maxHeaderCount = 100;
        private long maxBodyBytes = 16L * 1024 * 1024;
        private int maxPipelined = 16;
        private long maxDrainBytes = 256 * 1024;
        private int maxQueryPairs = 1_000;
        private int maxLeadingEmptyLines = 8;
        private int maxContentCodings = 2;
        private int maxJsonNestingDepth = 500;
        private int maxJsonNumberLength = 1_000;
        private int maxJsonStringLength = 16 * 1024 * 1024;
        private int acceptBacklog = 4_096;
        private int writeBufferLowWaterMark = 32 * 1024;
        private int writeBufferHighWaterMark = 64 * 1024;
        private int decoderChunkBytes = 64 * 1024;
        private int bodyHighWaterBytes = 1024 * 1024;
        private int maxParts = 1_000;
        private int maxPartHeaderBytes = 8 * 1024;
        private int maxFieldBytes = 64 * 1024;
        private long maxFileBytes = 1L << 30;
        private int uploadMemoryBytes = 64 * 1024;
        private int maxConcurrentStreams = 100;
        private int streamWindowBytes = 1024 * 1024;
        private int maxFrameBytes = 16 * 1024;
        private int maxQueuedControlFrames = 10_000;
        private int maxResetsPerWindow = 200;

        private Builder() {}

        private Builder(Limits l) {
            concurrencyPerLoop = l.concurrencyPerLoop;
            maxConnections = l.maxConnections;
            maxRequestLineBytes = l.maxRequestLineBytes;
            maxHeaderBytes = l.maxHeaderBytes;
            maxHeaderCount = l.maxHeaderCount;
            maxBodyBytes = l.maxBodyBytes;
            maxPipelined = l.maxPipelined;
            maxDrainBytes = l.maxDrainBytes;
            maxQueryPairs = l.maxQueryPairs;
            maxLeadingEmptyLines = l.maxLeadingEmptyLines;
            maxContentCodings = l.maxContentCodings;
            maxJsonNestingDepth = l.maxJsonNestingDepth;
            maxJsonNumberLength = l.maxJsonNumberLength;
            maxJsonStringLength = l.maxJsonStringLength;
            acceptBacklog = l.acceptBacklog;
            writeBufferLowWaterMark = l.writeBufferLowWaterMark;
            writeBufferHighWaterMark = l.writeBufferHighWaterMark;
            decoderChunkBytes = l.decoderChunkBytes;
            bodyHighWaterBytes = l.bodyHighWaterBytes;
            maxParts = l.maxParts;
            maxPartHeaderBytes = l.maxPartHeaderBytes;
            maxFieldBytes = l.maxFieldBytes;
            maxFileBytes = l.maxFileBytes;
            uploadMemoryBytes = l.uploadMemoryBytes;
            maxConcurrentStreams = l.maxConcurrentStreams;
            streamWindowBytes = l.streamWindowBytes;
            maxFrameBytes = l.maxFrameBytes;
            maxQueuedControlFrames = l.maxQueuedControlFrames;
            maxResetsPerWindow = l.maxResetsPerWindow;
        }

        /** @param v see {@link Limits#concurrencyPerLoop()} @return this */
        public Builder concurrencyPerLoop(int v) { concurrencyPerLoop = v; return this; }
        /** @param v see {@link Limits#maxConnections()} @return this */
        public Builder maxConnections(int v) { maxConnections = v; return this; }
        /** @param v see {@link Limits#maxRequestLineBytes()} @return this */
        public Builder maxRequestLineBytes(int v) { maxRequestLineBytes = v; return this; }
        /** @param v see {@link Limits#maxHeaderBytes()} @return this */
        public Builder maxHeaderBytes(int v) { maxHeaderBytes = v; return this; }
        /** @param v see {@link Limits#maxHeaderCount()} @return this */
        public Builder maxHeaderCount(int v) { maxHeaderCount = v; return this; }
        /** @param v see {@link Limits#maxBodyBytes()} @return this */
        public Builder maxBodyBytes(long v) { maxBodyBytes = v; return this; }
        /** @param v see {@link Limits#maxPipelined()} @return this */
        public Builder maxPipelined(int v) { maxPipelined = v; return this; }
        /** @param v see {@link Limits#maxDrainBytes()} @return this */
        public Builder maxDrainBytes(long v) { maxDrainBytes = v; return this; }
        /** @param v see {@link Limits#maxQueryPairs()} @return this */
        public Builder maxQueryPairs(int v) { maxQueryPairs = v; return this; }
        /** @param v see {@link Limits#maxLeadingEmptyLines()} @return this */
        public Builder maxLeadingEmptyLines(int v) { maxLeadingEmptyLines = v; return this; }
        /** @param v see {@link Limits#maxContentCodings()} @return this */
        public Builder maxContentCodings(int v) { maxContentCodings = v; return this; }
        /** @param v see {@link Limits#maxJsonNestingDepth()} @return this */
        public Builder maxJsonNestingDepth(int v) { maxJsonNestingDepth = v; return this; }
        /** @param v see {@link Limits#maxJsonNumberLength()} @return this */
        public Builder maxJsonNumberLength(int v) { maxJsonNumberLength = v; return this; }
        /** @param v see {@link Limits#maxJsonStringLength()} @return this */
        public Builder maxJsonStringLength(int v) { maxJsonStringLength = v; return this; }
        /** @param v see {@link Limits#acceptBacklog()} @return this */
        public Builder acceptBacklog(int v) { acceptBacklog = v; return this; }
        /** @param v see {@link Limits#writeBufferLowWaterMark()} @return this */
        public Builder writeBufferLowWaterMark(int v) { writeBufferLowWaterMark = v; return this; }
        /** @param v see {@link Limits#writeBufferHighWaterMark()} @return this */
        public Builder writeBufferHighWaterMark(int v) { writeBufferHighWaterMark = v; return this; }
        /** @param v see {@link Limits#decoderChunkBytes()} @return this */
        public Builder decoderChunkBytes(int v) { decoderChunkBytes = v; return this; }
        /** @param v see {@link Limits#bodyHighWaterBytes()} @return this */
        public Builder bodyHighWaterBytes(int v) { bodyHighWaterBytes = v; return this; }
        /** @param v see {@link Limits#maxParts()} @return this */
        public Builder maxParts(int v) { maxParts = v; return this; }
        /** @param v see {@link Limits#maxPartHeaderBytes()} @return this */
        public Builder maxPartHeaderBytes(int v) { maxPartHeaderBytes = v; return this; }
        /** @param v see {@link Limits#maxFieldBytes()} @return this */
        public Builder maxFieldBytes(int v) { maxFieldBytes = v; return this; }
        /** @param v see {@link Limits#maxFileBytes()} @return this */
        public Builder maxFileBytes(long v) { maxFileBytes = v; return this; }
        /** @param v see {@link Limits#uploadMemoryBytes()} @return this */
        public Builder uploadMemoryBytes(int v) { uploadMemoryBytes = v; return this; }
        /** @param v see {@link Limits#maxConcurrentStreams()} @return this */
        public Builder maxConcurrentStreams(int v) { maxConcurrentStreams = v; return this; }
        /** @param v see {@link Limits#streamWindowBytes()} @return this */
        public Builder streamWindowBytes(int v) { streamWindowBytes = v; return this; }
        /** @param v see {@link Limits#maxFrameBytes()} @return this */
        public Builder maxFrameBytes(int v) { maxFrameBytes = v; return this; }
        /** @param v see {@link Limits#maxQueuedControlFrames()} @return this */
        public Builder maxQueuedControlFrames(int v) { maxQueuedControlFrames = v; return this; }
        /** @param v see {@link Limits#maxResetsPerWindow()} @return this */
        public Builder maxResetsPerWindow(int v) { maxResetsPerWindow = v; return this; }

        /** @return the limits; throws {@link IllegalArgumentException} naming a bad field */
        public Limits build() {
            return new Limits(concurrencyPerLoop, maxConnections, maxRequestLineBytes, maxHeaderBytes,
                    maxHeaderCount, maxBodyBytes, maxPipelined, maxDrainBytes, maxQueryPairs,
                    maxLeadingEmptyLines, maxContentCodings, maxJsonNestingDepth, maxJsonNumberLength,
                    maxJsonStringLength, acceptBacklog, writeBufferLowWaterMark, writeBufferHighWaterMark,
                    decoderChunkBytes, bodyHighWaterBytes, maxParts, maxPartHeaderBytes, maxFieldBytes,
                    maxFileBytes, uploadMemoryBytes, maxConcurrentStreams, streamWindowBytes, maxFrameBytes,
                    maxQueuedControlFrames, maxResetsPerWindow);
        }
    }
}
