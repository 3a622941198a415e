package dev.tidemill.tests.controllers;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Principal;
import dev.tidemill.Response;
import dev.tidemill.controller.Anonymous;
import dev.tidemill.controller.Body;
import dev.tidemill.controller.Controller;
import dev.tidemill.controller.CookieParam;
import dev.tidemill.controller.Delete;
import dev.tidemill.controller.Form;
import dev.tidemill.controller.Get;
import dev.tidemill.controller.HeaderParam;
import dev.tidemill.controller.Mode;
import dev.tidemill.controller.Operation;
import dev.tidemill.controller.Patch;
import dev.tidemill.controller.PathParam;
import dev.tidemill.controller.Post;
import dev.tidemill.controller.Produces;
import dev.tidemill.controller.Put;
import dev.tidemill.controller.QueryParam;
import dev.tidemill.controller.RateLimited;
import dev.tidemill.controller.Requires;
import dev.tidemill.controller.Returns;
import dev.tidemill.controller.Status;
import dev.tidemill.controller.Tool;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The catalog as a controller; {@link CatalogDsl} is the same endpoints written with the lambda API. */
@Controller("/catalog")
@Operation(tags = "catalog")
public final class CatalogController {

    /** Constructed by the tests. */
    public CatalogController() {}

    /** @param id the product @param verbose echoed in the name @return the product */
    @Get("/products/{id}")
    @Anonymous
    @Tool(name = "get_product", description = "A product by its id")
    public Catalog.Product product(@PathParam long id, @QueryParam(defaultValue = "false") boolean verbose) {
        return new Catalog.Product(id, verbose ? "lamp (verbose)" : "lamp", 19.5);
    }

    /** @return a page, echoing every input */
    @Get("/products")
    @Anonymous
    @Tool(name = "list_products", description = "Products, sorted")
    public Catalog.Page list(@QueryParam(defaultValue = "10") int limit, @QueryParam(defaultValue = "name") Catalog.Sort sort,
            @QueryParam("tag") List<String> tags, @QueryParam Optional<LocalDate> since,
            @HeaderParam("X-Tenant") Optional<String> tenant, @CookieParam(defaultValue = "light") String theme) {
        return Catalog.page(limit, sort, tags, since, tenant, theme);
    }

    /** @param p the new product @return it, created */
    @Post("/products")
    @Status(201)
    @Requires(scopes = "write")
    @Operation(summary = "Add a product", description = "Adds a product to the catalog.")
    @Tool(name = "add_product", description = "Adds a product")
    public Catalog.Product add(@Body Catalog.NewProduct p) {
        return new Catalog.Product(8, p.name(), p.price());
    }

    /** @param id the product @param r its new name @return it, renamed, later */
    @Patch("/products/{id}")
    @Anonymous
    public CompletionStage<Catalog.Product> rename(@PathParam long id, @Form Catalog.Rename r) {
        return CompletableFuture.supplyAsync(() -> new Catalog.Product(id, r.name(), 19.5));
    }

    /** @param id the product */
    @Delete("/products/{id}")
    @Requires(scopes = "write")
    @Operation(operationId = "removeProduct")
    public void remove(@PathParam long id) {
        if (id < 0) throw new IllegalArgumentException("never");
    }

    /** @return every product as CSV */
    @Get("/products.csv")
    @Produces("text/csv; charset=utf-8")
    @Anonymous
    @RateLimited(name = "csv", requests = 3, perSeconds = 60)
    public String csv() {
        return "id,name,price\n7,lamp,19.5\n";
    }

    /** @param id the product @param value the new price @return 200 with it, or 409 for a negative price */
    @Put("/products/{id}/price")
    @Mode(ExecutionMode.VIRTUAL)
    @Anonymous
    @Returns(Catalog.Product.class)
    public Response price(@PathParam long id, @QueryParam double value) throws InterruptedException {
        if (value < 0) return Response.status(409).json(java.util.Map.of("error", "negative"));
        return Response.ok().json(new Catalog.Product(id, "lamp", value));
    }

    /** @param who the caller @param tenant the tenant header @return who called */
    @Get("/whoami")
    @Requires
    public String whoami(Principal who, @HeaderParam(value = "X-Tenant", defaultValue = "main") String tenant) {
        return who.subject() + "@" + tenant;
    }
}
