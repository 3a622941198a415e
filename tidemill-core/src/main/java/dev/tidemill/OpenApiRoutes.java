package dev.tidemill;

import dev.tidemill.internal.openapi.OpenApiDocument;
import dev.tidemill.internal.openapi.SwaggerUi;
import java.util.ArrayList;
import java.util.List;

/**
 * The routes {@link Tidemill#openApi(OpenApi)} registers: the document (rendered at start, when
 * every route is known) and, unless turned off, Swagger UI's page and files. All operational.
 */
final class OpenApiRoutes {
    private final OpenApi settings;
    /** Written once by {@link #build} before the server accepts, read by the handler afterwards. */
    private volatile byte[] document;

    private OpenApiRoutes(OpenApi settings) {
        this.settings = settings;
    }

    static OpenApiRoutes register(Tidemill app, OpenApi settings) {
        OpenApiRoutes routes = new OpenApiRoutes(settings);
        StaticAssets ui = settings.uiPath().isPresent() ? SwaggerUi.assets() : null; // fails before any route is added
        app.get(settings.path(), req -> Response.ok().bytes(routes.document, "application/json"))
                .mode(ExecutionMode.IO).operational(true);
        settings.uiPath().ifPresent(uiPath -> {
            app.assets(uiPath + "/assets", ui).operational(true);
            String page = SwaggerUi.page(settings.title(), ui, settings.path());
            app.get(uiPath, req -> Response.ok().html(page)).mode(ExecutionMode.IO).operational(true);
        });
        return routes;
    }

    /** Renders the document; called at start. */
    void build(List<Route> all, Requirement appRequirement, Auth auth) {
        document = document(settings, all, appRequirement, auth);
    }

    /**
     * @param settings title, version, description
     * @param all the app's routes
     * @return the document, indented UTF-8 JSON
     * @throws IllegalStateException if two operations share an operationId
     */
    static byte[] document(OpenApi settings, List<Route> all, Requirement appRequirement, Auth auth) {
        List<OpenApiDocument.Entry> entries = new ArrayList<>(all.size());
        for (Route r : all) {
            Requirement who = r.requirement().or(() -> r.group().flatMap(RouteGroup::requirement)).orElse(appRequirement);
            entries.add(new OpenApiDocument.Entry(r, r.kind(), who));
        }
        OpenApiDocument.Schemes schemes = new OpenApiDocument.Schemes(auth.bearerTokens().isPresent(), auth.apiKeys().isPresent(),
                auth.apiKeys().flatMap(ApiKeys::header));
        return OpenApiDocument.render(new OpenApiDocument.Info(settings.title(), settings.version(), settings.description()),
                entries, schemes);
    }

    OpenApi settings() {
        return settings;
    }
}
