package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.internal.codec.ProblemJson;

/** A {@link Problem} as a {@link Response}, so mapped exceptions flow through the normal reply path. */
final class ProblemResponses {
    private ProblemResponses() {}

    static Response toResponse(Problem p) {
        Response r = Response.status(p.status()).bytes(ProblemJson.render(p), ProblemJson.CONTENT_TYPE);
        if (p.status() == 503) r = r.header("Retry-After", "1");
        return r;
    }
}
