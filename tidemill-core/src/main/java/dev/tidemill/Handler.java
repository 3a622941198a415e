package dev.tidemill;

/**
 * Handles one request. The return value becomes the response:
 * <ul>
 *   <li>{@code String} -> 200 {@code text/plain; charset=utf-8}</li>
 *   <li>{@code byte[]} -> 200 {@code application/octet-stream}</li>
 *   <li>{@link dev.tidemill.html.Html} -> 200 {@code text/html; charset=utf-8}, rendered into the response buffer</li>
 *   <li>{@link Response} -> exactly that status, headers and body</li>
 *   <li>{@link java.util.concurrent.CompletionStage} -> its value, once completed (the worker is
 *       freed while it waits; the concurrency slot is held)</li>
 *   <li>{@code null} -> 204 No Content</li>
 *   <li>anything else (records, collections, maps) -> 200 {@code application/json}</li>
 * </ul>
 */
@FunctionalInterface
public interface Handler {
    /**
     * @param request the request, with its declared parameters already coerced
     * @return the response value, see the type's documentation
     * @throws Exception anything; mapped by an {@link ExceptionMapper} or answered with a 500 problem
     */
    Object handle(Request request) throws Exception;
}
