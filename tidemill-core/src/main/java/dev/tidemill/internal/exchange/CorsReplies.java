package dev.tidemill.internal.exchange;

import dev.tidemill.Cors;
import dev.tidemill.internal.cors.CorsRules;

/**
 * Adds the CORS headers to every reply of an exchange the policy covers, the server's own
 * refusals (404, 405, 413, 429, 503, 504...) included, so a script on an allowed origin can read
 * why it was refused. The policy is the route's (resolved once at start against its groups and
 * the app); a request no route took gets the app's. Applied where the exchange hands its reply
 * to the sink, so no reply path can forget it. A 405 gets the policy of the routes on its path.
 */
final class CorsReplies {
    private CorsReplies() {}

    static Reply apply(Exchange ex, Reply reply) {
        if (ex.preflight || reply.upgrades()) return reply; // a preflight's answer is complete; a 101 is not CORS's
        Endpoint e = ex.endpoint;
        Cors policy = e != null ? e.cors() : ex.pathCors != null ? ex.pathCors : ex.context().appCors();
        if (policy == null) return reply;
        String origin = ex.header("Origin").orElse(null);
        return new Reply(reply.exchange(), reply.status(), CorsRules.actual(policy, origin, reply.headers()),
                reply.contentType(), reply.body(), reply.contentLength(), reply.stream(), reply.close(), reply.takeover(),
                reply.file());
    }
}
