package dev.tidemill.internal.auth;

import dev.tidemill.Problem;
import dev.tidemill.internal.routing.QueryString;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of the CSRF check, for a URL-encoded form from a browser that sent neither
 * {@code Sec-Fetch-Site} nor {@code Origin}: the gate lets it through to have its body read, and
 * before any filter or handler runs, the form's {@value CrossSiteCheck#FORM_FIELD} field must be
 * the session's synchronizer token. Reading a form body at the gate would hold the request there
 * while it arrives; here it is read already, as the handler would read it.
 */
public final class FormToken {
    private static final Logger LOG = LoggerFactory.getLogger(FormToken.class);

    private FormToken() {}

    /**
     * @param session the request's session, which the gate asked for a form token
     * @param body the whole body, or null when the route streams it (then no token can be read first)
     * @throws dev.tidemill.ProblemException 403 when the token is missing or wrong
     */
    public static void check(SessionState session, byte[] body) {
        List<String> sent = body == null ? List.of()
                : QueryString.parseForm(body, StandardCharsets.UTF_8).getOrDefault(CrossSiteCheck.FORM_FIELD, List.of());
        if (sent.size() == 1 && MessageDigest.isEqual(sent.get(0).getBytes(StandardCharsets.UTF_8),
                session.csrfToken().getBytes(StandardCharsets.UTF_8))) {
            return;
        }
        LOG.info("refused as cross-site: {}", CrossSiteCheck.NO_SIGNAL);
        throw Problem.of(403, "Forbidden", "cross-site request refused: " + CrossSiteCheck.NO_SIGNAL).toException();
    }
}
