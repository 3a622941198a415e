package dev.tidemill.internal.auth;

import dev.tidemill.Principal;
import java.util.concurrent.CompletionStage;

/** What authenticating a request came to: a caller let through, a refusal, or an answer that comes later. */
public sealed interface Outcome {

    /**
     * @param principal who called; null for a route that needs nobody (nothing was authenticated)
     * @param session the request's session, null on an app without sessions
     */
    record Admitted(Principal principal, SessionState session) implements Outcome {
        /** Admitted without a session. */
        public Admitted(Principal principal) {
            this(principal, null);
        }

        Admitted with(SessionState s) {
            return new Admitted(principal, s);
        }
    }

    /**
     * @param status 400, 401, 403 or 503
     * @param title the problem's title
     * @param detail the problem's detail: generic, never the credential or why it failed (that is logged)
     * @param headers response fields, name then value ({@code WWW-Authenticate}, {@code Retry-After})
     */
    record Refused(int status, String title, String detail, String... headers) implements Outcome { }

    /** @param later the outcome, once keys are fetched; completes off the I/O thread */
    record Pending(CompletionStage<Outcome> later) implements Outcome { }
}
