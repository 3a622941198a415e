package dev.tidemill.internal.exchange;

/**
 * The transport's side of a streamed request body ({@link RequestBodyQueue}): what the reader asks of
 * the connection or stream the bytes come from. HTTP/1.1 implements it with the socket's read
 * interest; an HTTP/2 stream would with its flow-control window. Both methods may be called from
 * any thread and must not block.
 */
public interface RequestBodySource {
    /**
     * The reader wants bytes and the stream holds few: read (again). The first call is where a
     * {@code 100 Continue} is owed, so a handler that never reads never invites the body.
     */
    void demand();

    /**
     * The reader will read no more before the body's end (it answered, closed the stream or
     * failed): the transport disposes of the rest, discarding it within the drain limit or closing
     * after the answer.
     */
    void abandon();

    /**
     * The reader took {@code bytes} from the stream. HTTP/1.1 needs nothing here (its socket reads
     * again on {@link #demand}); an HTTP/2 stream gives them back to its flow-control window.
     *
     * @param bytes bytes of the body the reader now holds
     */
    void taken(int bytes);

    /** @return whether the caller runs on the transport's thread, where blocking on the body would deadlock */
    boolean onTransportThread();
}
