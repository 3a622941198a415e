package dev.tidemill;

import dev.tidemill.internal.integration.OptionalDependency;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the OpenAPI 3.1 document an app serves, turned on with {@link Tidemill#openApi(OpenApi)}:
 * the document at {@link #path()}, built once at start from the routes (their {@link Param}s, body
 * and return declarations, summaries and tags), and Swagger UI at {@link #uiPath()}. Both routes
 * are {@link Route#operational(boolean) operational}, so they are not in the document themselves.
 * See docs/openapi.md.
 *
 * <pre>{@code
 * app.openApi(OpenApi.builder().title("Shop").version("2.1.0").build());   // /openapi.json, /docs
 * app.openApi(OpenApi.builder().title("Shop").ui(false).build());          // the document only
 * }</pre>
 */
public final class OpenApi {
    /**
     * The defaults: title {@code Tidemill app}, version {@code 1.0.0}, {@code /openapi.json}, UI at
     * {@code /docs} when {@code org.webjars:swagger-ui} is present.
     */
    public static final OpenApi DEFAULTS = builder().build();

    private final String title;
    private final String version;
    private final String description;
    private final String path;
    private final String uiPath;

    private OpenApi(Builder b) {
        this.title = b.title;
        this.version = b.version;
        this.description = b.description;
        this.path = b.path;
        boolean ui;
        if (b.ui == null) {
            ui = OptionalDependency.SWAGGER_UI.present();
        } else {
            if (b.ui) OptionalDependency.SWAGGER_UI.require("OpenApi.builder().ui(true)");
            ui = b.ui;
        }
        this.uiPath = ui ? b.uiPath : null;
        if (uiPath != null && (uiPath.equals(path) || path.startsWith(uiPath + "/assets/"))) {
            throw new IllegalArgumentException("the document path " + path + " collides with the UI at " + uiPath);
        }
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return {@code info.title}; default {@code Tidemill app} */
    public String title() {
        return title;
    }

    /** @return {@code info.version}, the API's version (not OpenAPI's); default {@code 1.0.0} */
    public String version() {
        return version;
    }

    /** @return {@code info.description} (CommonMark), if set; none by default */
    public Optional<String> description() {
        return Optional.ofNullable(description);
    }

    /** @return where the document is served; default {@code /openapi.json} */
    public String path() {
        return path;
    }

    /**
     * @return where Swagger UI's page is served (its files under {@code uiPath/assets/}); default
     *     {@code /docs}; empty when the UI is off, or was not asked for and {@code org.webjars:swagger-ui}
     *     is absent
     */
    public Optional<String> uiPath() {
        return Optional.ofNullable(uiPath);
    }

    /** Builder for {@link OpenApi}; the defaults are defined here and nowhere else. */
    public static final class Builder {
        private String title = "Tidemill app";
        private String version = "1.0.0";
        private String description;
        private String path = "/openapi.json";
        private String uiPath = "/docs";
        /** Null until set: then on exactly when the webjar is present. */
        private Boolean ui;

        private Builder() {}

        /** @param value see {@link OpenApi#title()} @return this */
        public Builder title(String value) {
            title = RouteDocs.text("title", value);
            return this;
        }

        /** @param value see {@link OpenApi#version()} @return this */
        public Builder version(String value) {
            version = RouteDocs.text("version", value);
            return this;
        }

        /** @param value see {@link OpenApi#description()} @return this */
        public Builder description(String value) {
            description = RouteDocs.text("description", value);
            return this;
        }

        /** @param value see {@link OpenApi#path()}: starts with {@code /}, no parameters @return this */
        public Builder path(String value) {
            path = literalPath(value);
            return this;
        }

        /** @param value see {@link OpenApi#uiPath()}: starts with {@code /}, no parameters @return this */
        public Builder uiPath(String value) {
            uiPath = literalPath(value);
            return this;
        }

        /**
         * @param on whether Swagger UI is served; it needs {@code org.webjars:swagger-ui}, and
         *     {@link #build()} throws {@link IllegalStateException} naming it when {@code on} is
         *     true and it is absent. Default: on when the webjar is present, else off.
         * @return this
         */
        public Builder ui(boolean on) {
            ui = on;
            return this;
        }

        /** @return the settings; throws {@link IllegalStateException} when the UI was asked for without its webjar */
        public OpenApi build() {
            return new OpenApi(this);
        }

        private static String literalPath(String value) {
            Objects.requireNonNull(value, "path");
            if (!value.startsWith("/") || value.length() < 2 || value.endsWith("/") || value.contains("{")
                    || value.contains("?") || value.contains("#")) {
                throw new IllegalArgumentException("a path starting with '/', not ending with one, without parameters: " + value);
            }
            return value;
        }
    }
}
