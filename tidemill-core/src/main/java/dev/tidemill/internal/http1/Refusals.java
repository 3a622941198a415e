package dev.tidemill.internal.http1;

import dev.tidemill.Problem;

import dev.tidemill.internal.exchange.Verdict;

/**
 * What happens to a connection after a request is refused before dispatch. The answer goes out
 * either way; the question is the body the client may still be sending. Keeping the connection
 * means reading and discarding that body, which is worth it up to {@code maxDrainBytes}: past
 * that, or when the verdict says the framing is lost, or when the client waits for
 * {@code 100 Continue} and may never send the body at all, the connection closes after the answer.
 */
final class Refusals {
    /** After the refusal's answer. */
    enum Next {
        /** no body: read the next request */
        READ_NEXT,
        /** a body within the drain limit follows: discard it, then read the next request */
        DISCARD_BODY,
        /** close once the answer is written */
        CLOSE
    }

    private Refusals() {}

    static Next after(Verdict verdict, HeadFraming framing, long maxDrainBytes) {
        if (verdict.close()) return Next.CLOSE;
        if (!framing.hasBody()) return Next.READ_NEXT;
        if (framing.expectsContinue()) return Next.CLOSE; // the client may never send the body
        if (framing.chunked()) return maxDrainBytes == 0 ? Next.CLOSE : Next.DISCARD_BODY;
        long declared = framing.declaredLength();
        return declared < 0 || declared > maxDrainBytes ? Next.CLOSE : Next.DISCARD_BODY;
    }

    /** @return the answer to a chunked body whose framing broke: 431 for an oversized trailer, else 400 */
    static Problem malformedBody(Throwable cause, int maxHeaderBytes) {
        if (cause instanceof io.netty.handler.codec.TooLongFrameException) {
            return Problem.of(431, "Request Header Fields Too Large", "the trailer section exceeds "
                    + maxHeaderBytes + " bytes (maxHeaderBytes)");
        }
        return Problem.of(400, "Bad Request", "malformed chunked body" + (cause == null || cause.getMessage() == null
                ? "" : ": " + HeadChecks.printable(cause.getMessage())));
    }

    /** @return the answer to a body that grew past its route's limit while it was read */
    static Problem bodyTooLarge(long maxBodyBytes) {
        return Problem.of(413, "Content Too Large", "the body exceeds the " + maxBodyBytes + "-byte limit (maxBodyBytes)");
    }

    /** @return the answer to a body that stopped arriving */
    static Problem bodyStalled(long millis) {
        return Problem.of(408, "Request Timeout", "no body bytes for " + millis + " ms (bodyStallTimeout)");
    }
}
