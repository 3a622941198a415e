package dev.tidemill.tests.controllers;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.RateLimit;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Routes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@link CatalogController}'s endpoints written by hand with the lambda API, as its user would. */
final class CatalogDsl {
    static final Param<Long> ID = Param.path("id", ParamType.LONG);
    static final Param<Boolean> VERBOSE = Param.query("verbose", ParamType.BOOLEAN).withDefault(false);
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(10);
    static final Param<Catalog.Sort> SORT = Param.query("sort", ParamType.enumOf(Catalog.Sort.class)).withDefault(Catalog.Sort.NAME);
    static final Param<List<String>> TAGS = Param.queryList("tag", ParamType.STRING);
    static final Param<Optional<LocalDate>> SINCE = Param.query("since", ParamType.LOCAL_DATE).optional();
    static final Param<Optional<String>> TENANT = Param.header("X-Tenant", ParamType.STRING).optional();
    static final Param<String> THEME = Param.cookie("theme", ParamType.STRING).withDefault("light");
    static final Param<Double> VALUE = Param.query("value", ParamType.DOUBLE);
    static final Param<String> TENANT_OR_MAIN = Param.header("X-Tenant", ParamType.STRING).withDefault("main");

    private CatalogDsl() {}

    static void register(Routes app) {
        app.get("/catalog/products/{id}", req -> new Catalog.Product(req.param(ID), req.param(VERBOSE) ? "lamp (verbose)" : "lamp", 19.5))
                .params(ID, VERBOSE).returns(Catalog.Product.class).tags("catalog")
                .requires(Requirement.anonymous()).tool("get_product", "A product by its id");
        app.get("/catalog/products", req -> Catalog.page(req.param(LIMIT), req.param(SORT), req.param(TAGS), req.param(SINCE),
                        req.param(TENANT), req.param(THEME)))
                .params(LIMIT, SORT, TAGS, SINCE, TENANT, THEME).returns(Catalog.Page.class).tags("catalog")
                .requires(Requirement.anonymous()).tool("list_products", "Products, sorted");
        app.post("/catalog/products", req -> {
            Catalog.NewProduct p = req.body(Catalog.NewProduct.class);
            return Response.status(201).json(new Catalog.Product(8, p.name(), p.price()));
        }).body(Catalog.NewProduct.class).returns(201, Catalog.Product.class).summary("Add a product")
                .description("Adds a product to the catalog.").tags("catalog").requires(Requirement.scope("write"))
                .tool("add_product", "Adds a product");
        app.patch("/catalog/products/{id}", req -> {
            long id = req.param(ID);
            Catalog.Rename r = req.body(Catalog.Rename.class);
            return CompletableFuture.supplyAsync(() -> new Catalog.Product(id, r.name(), 19.5));
        }).params(ID).form(Catalog.Rename.class).returns(Catalog.Product.class).tags("catalog").requires(Requirement.anonymous());
        app.delete("/catalog/products/{id}", req -> null).params(ID).returns(204, Void.class).tags("catalog")
                .operationId("removeProduct").requires(Requirement.scope("write"));
        app.get("/catalog/products.csv", req -> Response.ok().bytes("id,name,price\n7,lamp,19.5\n".getBytes(StandardCharsets.UTF_8),
                        "text/csv; charset=utf-8"))
                .returns(String.class).produces("text/csv; charset=utf-8").tags("catalog").requires(Requirement.anonymous())
                .rateLimit(RateLimit.builder("csv").requests(3).per(Duration.ofSeconds(60)).build());
        app.put("/catalog/products/{id}/price", req -> {
            double value = req.param(VALUE);
            if (value < 0) return Response.status(409).json(java.util.Map.of("error", "negative"));
            return Response.ok().json(new Catalog.Product(req.param(ID), "lamp", value));
        }).params(ID, VALUE).returns(Catalog.Product.class).mode(ExecutionMode.VIRTUAL).tags("catalog").requires(Requirement.anonymous());
        app.get("/catalog/whoami", req -> req.principal().orElseThrow().subject() + "@" + req.param(TENANT_OR_MAIN))
                .params(TENANT_OR_MAIN).returns(String.class).tags("catalog").requires(Requirement.authenticated());
    }
}
