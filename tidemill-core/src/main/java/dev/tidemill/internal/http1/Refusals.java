package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.Verdict;
import io.netty.handler.codec.http.HttpRequest;

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

    static Next after(Verdict verdict, HttpRequest req, long maxDrainBytes) {
        boolean hasBody = HeadChecks.hasBody(req);
        if (verdict.close()) return Next.CLOSE;
        if (!hasBody) return Next.READ_NEXT;
        if (HeadChecks.expectsContinue(req)) return Next.CLOSE; // the client may never send the body
        if (HeadChecks.chunked(req)) return maxDrainBytes == 0 ? Next.CLOSE : Next.DISCARD_BODY;
        long declared = HeadChecks.declaredLength(req);
        return declared < 0 || declared > maxDrainBytes ? Next.CLOSE : Next.DISCARD_BODY;
    }
}
