package dev.tidemill.internal.redis;

import dev.tidemill.MessageId;
import java.util.List;

/** What XINFO STREAM says about a stream's trimmed and deleted entries. */
final class StreamInfo {
    private StreamInfo() {}

    /**
     * Whether entries after {@code afterId} are gone, from XINFO STREAM (Redis 7.0 fields): one was
     * deleted after it ({@code max-deleted-entry-id}), or it is older than the first entry kept
     * ({@code recorded-first-entry-id}) and the stream was trimmed ({@code entries-added} above
     * {@code length}). The second errs towards "some": when the id was itself the last entry trimmed,
     * nothing after it is gone, and the stream cannot tell.
     *
     * @param xinfo XINFO STREAM's answer, field then value (empty when the stream does not exist)
     * @param afterId the last id a client saw
     * @return whether to report a loss
     */
    static boolean lostAfter(List<Object> xinfo, MessageId afterId) {
        MessageId maxDeleted = MessageId.ZERO;
        MessageId first = null;
        long added = -1;
        long length = -1;
        for (int i = 0; i + 1 < xinfo.size(); i += 2) {
            String field = String.valueOf(xinfo.get(i));
            String value = String.valueOf(xinfo.get(i + 1));
            switch (field) {
                case "max-deleted-entry-id" -> maxDeleted = MessageId.parse(value).orElse(MessageId.ZERO);
                case "recorded-first-entry-id" -> first = MessageId.parse(value).orElse(null);
                case "entries-added" -> added = parseLong(value);
                case "length" -> length = parseLong(value);
                default -> { }
            }
        }
        if (maxDeleted.isAfter(afterId)) return true;
        return first != null && added > length && length >= 0 && first.isAfter(afterId);
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
