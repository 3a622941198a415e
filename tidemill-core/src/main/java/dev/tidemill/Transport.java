package dev.tidemill;

/** The Netty transport the server runs on. */
public enum Transport {
    /** Native epoll on Linux when available, else NIO; the choice and the reason are logged. */
    AUTO,
    /** Linux native epoll. Startup fails if it is unavailable. */
    EPOLL,
    /** Linux io_uring. Startup fails if it is unavailable. */
    IO_URING,
    /** The JDK's NIO selector: works everywhere. */
    NIO
}
