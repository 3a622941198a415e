package dev.tidemill.tests.controllers;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import java.util.Optional;

/** The types the catalog's routes take and answer, shared by its controller and its DSL twin. */
public final class Catalog {
    private Catalog() {}

    /** How a list is sorted. */
    public enum Sort { NAME, PRICE }

    /** A product. */
    public record Product(long id, String name, double price) {}

    /** A JSON body, validated. */
    public record NewProduct(@NotBlank String name, @Min(0) double price) {}

    /** A URL-encoded form, validated. */
    public record Rename(@NotBlank String name) {}

    /** A page of products, with what it was asked for. */
    public record Page(List<Product> items, int limit, Sort sort, List<String> tags, String since, String tenant, String theme) {}

    static final Product LAMP = new Product(7, "lamp", 19.5);

    static Page page(int limit, Sort sort, List<String> tags, Optional<java.time.LocalDate> since, Optional<String> tenant, String theme) {
        return new Page(List.of(LAMP), limit, sort, tags, since.map(Object::toString).orElse("any"), tenant.orElse("none"), theme);
    }
}
