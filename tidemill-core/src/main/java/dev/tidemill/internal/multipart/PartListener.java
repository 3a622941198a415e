package dev.tidemill.internal.multipart;

/** What {@link MultipartParser} reports, in body order, on the thread that feeds it. */
public interface PartListener {

    /** @param head a part's headers, complete and checked; its content follows */
    void partBegin(PartHead head);

    /**
     * A slice of the current part's content: {@code data}'s bytes from index {@code off} (absolute,
     * not from its position) for {@code len}. The buffer is the caller's input (or the parser's own
     * delimiter bytes): read it during the call, never keep it, and leave its position and limit
     * as they are (read through a view or absolute gets).
     *
     * @param data bytes
     * @param off index of the first byte
     * @param len bytes in the slice, at least 1
     */
    void partData(java.nio.ByteBuffer data, int off, int len);

    /** The current part's content is complete. */
    void partEnd();
}
