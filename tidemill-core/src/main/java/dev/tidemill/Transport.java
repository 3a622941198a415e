package dev.tidemill;

/** The Netty transport the server runs on. */
public enum Transport {
    /** Native epoll on Linux when available, else NIO; the choice and the reason are logged. */
    AUTO,
    /** Linux native epoll. Startup fails if it is unavailable. */
    EPOLL,
    /** Linux io_uring. Startup fails if it is unavailable. */
    IO_URING,
    /**
     * Linux io_uring reading into a provided-buffer ring (kernel 5.19 and later): each I/O thread
     * registers one ring, and a read takes a buffer from it only when data has arrived, instead of
     * each connection holding a buffer for a read that has not completed. The ring starts with
     * 64 buffers and grows by 64 up to 1,024 per I/O thread when reads find it empty; past that a
     * read waits for a buffer to come back. Startup fails if io_uring or its buffer rings are
     * unavailable. Never chosen by {@link #AUTO}.
     */
    IO_URING_BUFFER_RING,
    /** The JDK's NIO selector: works everywhere. */
    NIO
}
