package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketOptions;
import java.util.List;

/**
 * The opening handshake of a protocol a handler's answer switches its connection to
 * ({@code Response.webSocket(...)}): it checks the request and decides, and a
 * {@link ConnectionTakeover} runs the connection after the switch. The exchange knows only this
 * interface; which protocol implements it is chosen where every protocol is
 * ({@code internal.protocol.Protocols}), so nothing here imports a protocol package.
 */
@FunctionalInterface
public interface ProtocolSwitch {

    /**
     * What a handshake decided: either a refusal (a problem and its extra headers) or the
     * headers of the switching answer and what takes the connection over.
     *
     * @param refusal the problem, or null when accepted
     * @param headers name/value pairs for the answer
     * @param takeover what runs the connection after the switch, or null when refused
     */
    record Outcome(Problem refusal, List<String> headers, ConnectionTakeover takeover) {
        /**
         * @param status the refusal's status
         * @param title its title
         * @param detail its detail
         * @param headers name/value pairs the refusal carries
         * @return a refusal
         */
        public static Outcome refuse(int status, String title, String detail, String... headers) {
            return new Outcome(Problem.of(status, title, detail), List.of(headers), null);
        }
    }

    /**
     * Decides a handshake; on the handler's thread.
     *
     * @param ex the handshake request
     * @param options the route's options
     * @param handler runs the connection once accepted
     * @return the decision
     */
    Outcome handshake(Exchange ex, WebSocketOptions options, WebSocketHandler handler);
}
