package dev.tidemill.internal.exchange;

/**
 * Watches the responses of one route (or of requests no route matched), resolved once at start
 * ({@link ServerObserver#route}) and held in the route's {@link Endpoint}: what the request path
 * records with no lookup. Called on the transport's thread as the response head is written.
 */
public interface RouteObserver {

    /**
     * @param ex the exchange answered
     * @param status its status
     * @param bodyBytes the body's length, or -1 for a streamed body (its length is not known at the head)
     */
    void responded(Exchange ex, int status, long bodyBytes);
}
