package dev.tidemill.examples;

import dev.tidemill.controller.Anonymous;
import dev.tidemill.controller.Controller;
import dev.tidemill.controller.Get;
import dev.tidemill.controller.PathParam;
import dev.tidemill.controller.QueryParam;
import dev.tidemill.controller.Tool;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's items, written as a controller: tidemill-processor turns each method into a route at
 * compile time ({@code ItemsControllerRoutes}), and {@code app.controllers(new ItemsController())}
 * registers them. Both routes are MCP tools. See docs/controllers.md.
 */
@Controller
public final class ItemsController {

    /** Called by {@link Demo#create}; a real controller would take its repository here. */
    public ItemsController() {}

    /**
     * {@code GET /items/{id}?verbose=yes&tag=a&tag=b}: 422 when the id is not an integer.
     *
     * @param id the item's id
     * @param verbose echoed back; false by default
     * @param tags every {@code tag} of the query, in order
     * @return the item
     */
    @Get("/items/{id}")
    @Anonymous
    @Tool(name = "get_item", description = "An item by its id, with the query options echoed back")
    public Demo.Item item(@PathParam int id, @QueryParam(defaultValue = "false") boolean verbose, @QueryParam("tag") List<String> tags) {
        return new Demo.Item(id, verbose, tags);
    }

    /**
     * {@code GET /search?q=tide&limit=3&since=2026-11-01}.
     *
     * @param q what to search for (required)
     * @param limit at most this many results; 10 by default
     * @param since only results since this date, if given
     * @return the query as understood
     */
    @Get("/search")
    @Anonymous
    @Tool(name = "search", description = "Searches for q: at most limit results, since a date if given")
    public Map<String, Object> search(@QueryParam String q, @QueryParam(defaultValue = "10") int limit,
            @QueryParam Optional<LocalDate> since) {
        return Map.of("q", q, "limit", limit, "since", since.map(LocalDate::toString).orElse("any"));
    }
}
