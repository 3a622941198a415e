package dev.tidemill.bench.controllers;

/**
 * What both forms of each endpoint answer, written once so the controller's methods and the DSL
 * routes' lambdas do the same work: the difference measured is only how the route was declared.
 */
public final class Items {
    /** The plaintext answer. */
    public static final String HELLO = "Hello, World!";

    /**
     * The item the JSON endpoint answers.
     *
     * @param id the id asked for
     * @param name its name
     * @param stock units in stock
     * @param verbose whether the caller asked for the verbose form
     */
    public record Item(long id, String name, int stock, boolean verbose) {}

    private Items() {}

    /**
     * @param id the id
     * @param verbose the query parameter
     * @return the item
     */
    public static Item item(long id, boolean verbose) {
        return new Item(id, "item " + id, (int) (id % 100), verbose);
    }
}
