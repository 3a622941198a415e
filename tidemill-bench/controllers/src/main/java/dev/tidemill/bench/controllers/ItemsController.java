package dev.tidemill.bench.controllers;

import dev.tidemill.controller.Controller;
import dev.tidemill.controller.Get;
import dev.tidemill.controller.PathParam;
import dev.tidemill.controller.QueryParam;

/**
 * The controller form of the two endpoints, under {@value ControllersApp#CONTROLLER_PREFIX}; tidemill-processor
 * writes {@code ItemsControllerRoutes} from it, and {@link ControllersApp} writes the same routes by hand
 * with the DSL under two other prefixes.
 */
@Controller(ControllersApp.CONTROLLER_PREFIX)
public final class ItemsController {
    /** Constructed by the app. */
    public ItemsController() {}

    /**
     * @param id the item
     * @param verbose the query parameter
     * @return the item as JSON
     */
    @Get(ControllersApp.ITEM_PATTERN)
    public Items.Item item(@PathParam long id, @QueryParam(defaultValue = "false") boolean verbose) {
        return Items.item(id, verbose);
    }

    /** @return the plaintext answer */
    @Get(ControllersApp.PLAINTEXT_PATH)
    public String plaintext() {
        return Items.HELLO;
    }
}
