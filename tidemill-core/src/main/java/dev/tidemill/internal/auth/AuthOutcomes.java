package dev.tidemill.internal.auth;

import dev.tidemill.Principal;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * What authentication came to, counted for the metrics: a request let through by how its caller
 * proved it, or refused by why. Bounded labels: {@link #OUTCOMES} x {@link Principal.Via}, fixed.
 */
public final class AuthOutcomes {
    /** The outcomes counted: {@code admitted}, then the refusals by reason. */
    public static final List<String> OUTCOMES =
            List.of("admitted", "unauthorized", "forbidden", "cross_site", "invalid_request", "unavailable", "sign_in");

    private final LongAdder[] admitted = new LongAdder[Principal.Via.values().length];
    private final LongAdder[] refused = new LongAdder[OUTCOMES.size()];

    AuthOutcomes() {
        for (int i = 0; i < admitted.length; i++) admitted[i] = new LongAdder();
        for (int i = 0; i < refused.length; i++) refused[i] = new LongAdder();
    }

    /** A caller let through. */
    public void admitted(Principal.Via via) {
        admitted[via.ordinal()].increment();
    }

    /** A request refused, with the refusal's status and detail. */
    public void refused(int status, String detail) {
        refused[OUTCOMES.indexOf(reason(status, detail))].increment();
    }

    /** @return the reason a refusal is counted under */
    static String reason(int status, String detail) {
        return switch (status) {
            case 401 -> "unauthorized";
            case 403 -> detail.startsWith("cross-site") ? "cross_site" : "forbidden";
            case 400 -> "invalid_request";
            case 303 -> "sign_in";
            default -> "unavailable";
        };
    }

    /** @return callers let through that proved it {@code via} */
    public long admitted(int via) {
        return admitted[via].sum();
    }

    /** @return requests refused for the reason at {@code index} of {@link #OUTCOMES} (0 is never a refusal) */
    public long refused(int index) {
        return refused[index].sum();
    }
}
