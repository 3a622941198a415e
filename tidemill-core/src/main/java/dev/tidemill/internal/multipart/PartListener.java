package dev.tidemill.internal.multipart;

/** What {@link MultipartParser} reports, in body order, on the thread that feeds it. */
public interface PartListener {

    /** @param head a part's headers, complete and checked; its content follows */
    void partBegin(PartHead head);

    /**
     * A slice of the current part's content. The array is the caller's input (or the parser's own
     * delimiter bytes): read it during the call, never keep or change it.
     *
     * @param data bytes
     * @param off first byte
     * @param len bytes in the slice, at least 1
     */
    void partData(byte[] data, int off, int len);

    /** The current part's content is complete. */
    void partEnd();
}
